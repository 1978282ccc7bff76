import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { lagosDate, TestClock } from '../../src/kernel/clock.js';
import { toNaira } from '../../src/kernel/money.js';
import { call, createHarness, expectLedgerOk, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { buyer, mtn, PIN, VTU_ENV } from '../vtu/helpers.js';

// Issue 45: the profit view (retail minus wholesale of successful purchases by Lagos day, service and level) and the
// daily summary e-mail to admins, against the real database: sums checked against the purchases' own rows. Recharge
// cards count as service `epin`: a batch's delivered cards at the price and seller's price it was bought at.
let h: Harness;
let admin: TestUser;
let customer: TestUser;
let agent: TestUser;
let reseller: TestUser;

const profit = (input: Record<string, string>, who = admin) =>
  call(h, 'GET', '/_serverFn/adminProfitBearerAdmin', input, { token: who.token });
const airtime = (u: TestUser, last4: string, amount: number) =>
  call(h, 'POST', '/_serverFn/buyAirtimeBearerVTU', { network: 'mtn', phone: mtn(last4), amount, pin: PIN }, { token: u.token });

type Row = { service: string; price_level: string; status: string; amount: string; wholesale: string; created_at: Date };
type Batch = { price_level: string; status: string; delivered: number; unit_price: string; unit_wholesale: string; created_at: Date };
const epins = (u: TestUser, quantity: number) =>
  call(h, 'POST', '/_serverFn/buyEpinsBearerVTU', { network: 'mtn', denomination: 100, quantity, pin: PIN }, { token: u.token });

/** What the sums must be, computed here from the purchases' rows (successful ones, by Lagos day, service and level). */
async function expected() {
  const list = await rows<Row>(
    h.app.services.db,
    sql`SELECT service, price_level, status, amount::text AS amount, wholesale::text AS wholesale, created_at FROM vtu_transactions`,
  );
  const sums = new Map<string, { count: number; retail: bigint; wholesale: bigint }>();
  for (const r of list.filter((x) => x.status === 'success')) {
    const k = `${lagosDate(new Date(r.created_at))}|${r.service}|${r.price_level}`;
    const s = sums.get(k) ?? { count: 0, retail: 0n, wholesale: 0n };
    s.count++;
    s.retail += BigInt(r.amount);
    s.wholesale += BigInt(r.wholesale);
    sums.set(k, s);
  }
  // The e-PIN batches with cards delivered: one purchase each, the delivered cards' price and the seller's price.
  const batches = await rows<Batch>(
    h.app.services.db,
    sql`SELECT price_level, status, delivered, unit_price::text AS unit_price, unit_wholesale::text AS unit_wholesale, created_at
        FROM epin_batches`,
  );
  for (const b of batches.filter((x) => x.delivered > 0)) {
    const k = `${lagosDate(new Date(b.created_at))}|epin|${b.price_level}`;
    const s = sums.get(k) ?? { count: 0, retail: 0n, wholesale: 0n };
    s.count++;
    s.retail += BigInt(b.unit_price) * BigInt(b.delivered);
    s.wholesale += BigInt(b.unit_wholesale) * BigInt(b.delivered);
    sums.set(k, s);
  }
  return { list, batches, sums };
}

beforeAll(async () => {
  // 23:00 UTC on 10 March is already 11 March in Lagos: the purchases below straddle a Lagos midnight.
  h = await createHarness({ env: { ...VTU_ENV, ADMIN_EMAILS: 'admin@example.com' }, clock: new TestClock('2026-03-10T22:52:00Z') });
  admin = await signIn(h, 'admin@example.com');
  customer = await buyer(h, 50_000);
  agent = await buyer(h, 50_000);
  reseller = await buyer(h, 50_000);
  await h.app.services.db.execute(
    sql`INSERT INTO vtu_customer_levels (user_id, level, source, updated_at) VALUES (${agent.id}, 'agent', 'grant', now())`,
  );
  await h.app.services.db.execute(
    sql`INSERT INTO vtu_level_prices (level, service, plan, kind, value, updated_at) VALUES ('agent', 'airtime', '', 'flat', 0, now())`,
  );
  await h.app.services.db.execute(
    sql`INSERT INTO vtu_markups (service, provider, kind, value, updated_at) VALUES ('airtime', '', 'flat', 1000, now())
        ON CONFLICT (service, provider) DO UPDATE SET kind = 'flat', value = 1000`,
  );
  await h.app.services.db.execute(
    sql`INSERT INTO vtu_customer_levels (user_id, level, source, updated_at) VALUES (${reseller.id}, 'reseller', 'grant', now())`,
  );
  h.app.services.vtu.levels.clear();
  // 10 March (Lagos): a reseller's 10 recharge cards, delivered, and 11 that fail (refunded: no profit).
  expect((await epins(reseller, 10)).json().batch?.status).toBe('delivered');
  expect((await epins(reseller, 11)).json().batch?.status).toBe('failed');
  // 10 March (Lagos): two successful airtime purchases at two levels and a failed one.
  for (const [u, last4, amount] of [
    [customer, '4501', 200],
    [agent, '4502', 300],
    [customer, '1111', 400],
  ] as const)
    expect((await airtime(u, last4, amount)).statusCode).toBe(200);
  h.clock.advance(10 * 60 * 1000);
  // 11 March (Lagos): two more.
  expect((await airtime(agent, '4503', 500)).statusCode).toBe(200);
  const plans = (await call(h, 'GET', '/_serverFn/listDataPlansBearerVTU', { network: 'mtn' }, { token: customer.token })).json().items;
  const buy = await call(
    h,
    'POST',
    '/_serverFn/buyDataBearerVTU',
    { network: 'mtn', phone: mtn('4504'), plan_id: plans[0].plan_id, amount: plans[0].price, pin: PIN },
    { token: customer.token },
  );
  expect(buy.json().transaction?.status, buy.body).toBe('success');
  // 11 March: 22 cards of which the seller delivers 11 (the rest refunded).
  expect((await epins(reseller, 22)).json().batch).toMatchObject({ status: 'partial', delivered: 11 });
}, 180_000);
afterAll(async () => h?.close());

describe('adminProfit', () => {
  it('sums retail minus wholesale of successful purchases by Lagos day, service and level; a failed one counts nothing', async () => {
    const { list, sums } = await expected();
    expect(list.some((r) => r.status === 'failed')).toBe(true);
    const res = await profit({ from: '2026-03-10', to: '2026-03-11' });
    expect(res.statusCode, res.body).toBe(200);
    const out = res.json();
    expect(out).toMatchObject({ from: '2026-03-10', to: '2026-03-11' });
    const got = new Map(out.items.map((i: Record<string, never>) => [`${i.day}|${i.service}|${i.level}`, i]));
    expect([...got.keys()].sort()).toEqual([...sums.keys()].sort());
    for (const [k, s] of sums)
      expect(got.get(k)).toMatchObject({
        count: s.count,
        retail: toNaira(s.retail),
        wholesale: toNaira(s.wholesale),
        profit: toNaira(s.retail - s.wholesale),
      });
    // The airtime of 10 March: two levels, the failed purchase not counted; the data plan is 11 March's.
    expect([...sums.keys()].filter((k) => k.startsWith('2026-03-10')).sort()).toEqual([
      '2026-03-10|airtime|agent',
      '2026-03-10|airtime|customer',
      '2026-03-10|epin|reseller',
    ]);
    expect(sums.has('2026-03-11|data|customer')).toBe(true);
    // The recharge cards: delivered ones only, at the reseller's ₦98 over the seller's ₦97.
    expect(got.get('2026-03-10|epin|reseller')).toMatchObject({ count: 1, retail: 980, wholesale: 970, profit: 10 });
    expect(got.get('2026-03-11|epin|reseller')).toMatchObject({ count: 1, retail: 1078, wholesale: 1067, profit: 11 });
    const all = [...sums.values()].reduce((t, s) => ({ count: t.count + s.count, p: t.p + s.retail - s.wholesale }), { count: 0, p: 0n });
    expect(out.total).toMatchObject({ count: all.count, profit: toNaira(all.p) });
    expect(out.byService.map((s: { service: string }) => s.service).sort()).toEqual(['airtime', 'data', 'epin']);
    expect(out.byLevel.find((l: { level: string }) => l.level === 'reseller')).toMatchObject({
      levelName: 'Reseller',
      count: 2,
      profit: 21,
    });
    const agentLevel = out.byLevel.find((l: { level: string }) => l.level === 'agent');
    expect(agentLevel).toMatchObject({ levelName: 'Agent', count: 2 });
    // The agent's airtime is sold at wholesale + ₦0, the customer's at the ₦10 service markup.
    expect(got.get('2026-03-10|airtime|agent')).toMatchObject({
      profit: toNaira(sums.get('2026-03-10|airtime|agent')!.retail - sums.get('2026-03-10|airtime|agent')!.wholesale),
    });
  });

  it('filters by service and by level, and by a single Lagos day', async () => {
    const data = (await profit({ from: '2026-03-10', to: '2026-03-11', service: 'data' })).json();
    expect(data.items.every((i: { service: string }) => i.service === 'data')).toBe(true);
    expect(data.total.count).toBe(1);
    const agents = (await profit({ from: '2026-03-10', to: '2026-03-11', level: 'agent' })).json();
    expect(agents.items.map((i: { day: string }) => i.day)).toEqual(['2026-03-10', '2026-03-11']);
    const day = (await profit({ from: '2026-03-10', to: '2026-03-10' })).json();
    expect(day.total.count).toBe(3);
    const cards = (await profit({ from: '2026-03-10', to: '2026-03-11', service: 'epin' })).json();
    expect(cards.items.map((i: { day: string; service: string }) => `${i.day}|${i.service}`)).toEqual([
      '2026-03-10|epin',
      '2026-03-11|epin',
    ]);
    expect(cards.total).toMatchObject({ count: 2, profit: 21 });
    const resellers = (await profit({ from: '2026-03-10', to: '2026-03-11', level: 'reseller' })).json();
    expect(resellers.total).toMatchObject({ count: 2, profit: 21 });
    expect((await profit({ from: '2026-03-10', to: '2026-03-11', service: 'airtime' })).json().byService).toHaveLength(1);
  });

  it('is for finance and admins; a bad range is 400', async () => {
    const someone = await signIn(h);
    expect((await profit({}, someone)).statusCode).toBe(403);
    expect((await profit({ from: '2026-03-11', to: '2026-03-10' })).statusCode).toBe(400);
    expect((await profit({ from: '2026-02-30' })).statusCode).toBe(400);
  });
});

describe('the daily summary e-mail', () => {
  it("at 06:00 Lagos sends every admin yesterday's volume, profit by service and level, and waiting work, once", async () => {
    await expectLedgerOk(h);
    h.clock.set('2026-03-12T05:00:30Z');
    await h.app.services.jobs.tickCrons();
    await h.app.services.jobs.drain();
    await h.app.services.jobs.tickCrons();
    await h.app.services.jobs.drain();
    const box = (await h.app.inject({ method: 'GET', url: '/sandbox/mailbox?to=admin%40example.com' })).json().items;
    const mails = box.filter((m: { subject?: string }) => m.subject === 'Daily summary: 2026-03-11');
    expect(mails).toHaveLength(1);
    const text: string = mails[0].text;
    const { sums } = await expected();
    const of11 = [...sums.entries()].filter(([k]) => k.startsWith('2026-03-11'));
    const p = of11.reduce((t, [, s]) => t + s.retail - s.wholesale, 0n);
    expect(text).toContain('Summary of 2026-03-11 (Lagos)');
    expect(text).toContain(`on ${of11.reduce((t, [, s]) => t + s.count, 0)} purchases`);
    expect(text).toContain(`₦${toNaira(p).toLocaleString('en-NG', { minimumFractionDigits: 2 })}`);
    // Largest profit first: the reseller's 11 cards (₦1 each), the data plan's markup; the agent's airtime is sold at
    // wholesale (₦0 over it).
    expect(text).toMatch(
      /By service:\n {2}epin: 1 · ₦1,078\.00 · profit ₦11\.00\n {2}data: 1 · ₦[\d,.]+ · profit ₦[\d,.]+\n {2}airtime: 1 · ₦500\.00 · profit ₦0\.00\n/,
    );
    expect(text).toContain('Reseller: 1 · ₦1,078.00 · profit ₦11.00');
    expect(text).toContain('By price level:');
    expect(text).toContain('Agent: 1 · ₦500.00 · profit ₦0.00');
    expect(text).toContain('Purchases: 2, volume');
    expect(text).toContain('Approvals pending: 0');
  });
});
