import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { DAY } from '../../src/kernel/clock.js';
import { purchaseSearch, searchRange, searchTransactionsInput } from '../../src/modules/console/transactions.js';
import { purchaseSearchStatement } from '../../src/modules/vtu/api.js';
import { call, createHarness, grantRoles, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { buyer, PIN } from '../helpers/factories.js';

let h: Harness;
let admin: TestUser;
let finance: TestUser;
let support: TestUser;
let alice: TestUser;
let bob: TestUser;
const OP = '/_serverFn/adminSearchTransactionsBearerAdmin';
interface Item {
  id: string;
  reference: string;
  userId: string;
  email: string | null;
  amount: number;
  status: string;
  recipient: string;
  provider: string;
  createdAt: string;
  settledAt: string | null;
}
const search = async (input: Record<string, unknown>, who: TestUser = admin) => {
  const res = await call(h, 'GET', OP, input, { token: who.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: Item[]; hasMore: boolean; from: string | null; to: string | null };
};
const bought: { id: string; reference: string; who: string; amount: number; phone: string }[] = [];
const buy = async (who: TestUser, phone: string, amount: number) => {
  const res = await call(h, 'POST', '/api/v1/buyAirtime', { network: 'mtn', phone, amount, pin: PIN }, { token: who.token });
  expect(res.statusCode, res.body).toBe(200);
  const t = res.json().transaction as { id: string; reference: string };
  bought.push({ id: t.id, reference: t.reference, who: who.id, amount, phone });
  return t;
};

const again = async (who: TestUser) => ({ ...(await signIn(h, who.email)), id: who.id });

beforeAll(async () => {
  h = await createHarness();
  h.clock.set('2026-02-01T09:00:00Z');
  admin = await signIn(h, 'admin@example.com');
  finance = await signIn(h);
  support = await signIn(h);
  await grantRoles(
    h,
    [
      [finance, 'finance'],
      [support, 'support'],
    ],
    admin,
  );
  alice = await buyer(h);
  bob = await buyer(h);
  // Day 1 (2026-02-01 Lagos): alice 500 and 700; day 3: bob 300 to alice's first number; day 5: alice 900.
  await buy(alice, '08031230001', 500);
  h.clock.advance(60_000);
  await buy(alice, '08031230002', 700);
  h.clock.advance(2 * DAY);
  bob = await again(bob);
  await buy(bob, '08031230001', 300);
  h.clock.advance(2 * DAY);
  alice = await again(alice);
  await buy(alice, '08031230003', 900);
  // Sessions end with the days passed (operators' after 15 idle minutes): sign everyone in again.
  [admin, finance, support] = await Promise.all([admin, finance, support].map(again));
});
afterAll(async () => h.close());

describe('adminSearchTransactions', () => {
  it('finds a purchase by reference with the items the console shows', async () => {
    const want = bought[1]!;
    const out = await search({ reference: want.reference });
    expect(out.items).toHaveLength(1);
    expect(out.items[0]).toMatchObject({
      id: want.id,
      reference: want.reference,
      userId: alice.id,
      email: alice.email,
      service: 'airtime',
      recipient: '08031230002',
      amount: 700,
    });
    expect(out.items[0]!.provider).toEqual(expect.any(String));
    expect(out.items[0]!.status === 'processing' ? out.items[0]!.settledAt : 'settled').not.toBeUndefined();
    expect((await search({ reference: 'VTU-NOPE' })).items).toEqual([]);
  });

  it('filters by phone in any spelling, user, e-mail, status and service', async () => {
    const byPhone = await search({ phone: '+2348031230001' });
    expect(byPhone.items.map((i) => i.amount)).toEqual([300, 500]);
    expect((await search({ phone: '2348031230001' })).items).toHaveLength(2);
    expect((await search({ userId: bob.id })).items.map((i) => i.amount)).toEqual([300]);
    expect((await search({ email: alice.email.toUpperCase() })).items.map((i) => i.amount)).toEqual([900, 700, 500]);
    expect((await search({ email: 'nobody@example.com' })).items).toEqual([]);
    const status = (await search({ reference: bought[0]!.reference })).items[0]!.status;
    const same = await search({ email: alice.email, status });
    expect(same.items.every((i) => i.status === status)).toBe(true);
    expect(same.items.length).toBeGreaterThan(0);
    expect((await search({ email: alice.email, service: 'data' })).items).toEqual([]);
  });

  it('bounds by Lagos days: given days, and the last 30 days when no key narrows it', async () => {
    const day3 = await search({ from: '2026-02-03', to: '2026-02-03' });
    expect(day3.items.map((i) => i.amount)).toEqual([300]);
    expect((await search({ from: '2026-02-01', to: '2026-02-02' })).items.map((i) => i.amount)).toEqual([700, 500]);
    const dflt = await search({});
    expect(dflt).toMatchObject({ from: '2026-01-07', to: '2026-02-05' });
    expect(dflt.items).toHaveLength(4);
    const keyed = await search({ userId: alice.id });
    expect(keyed).toMatchObject({ from: null, to: null });
  });

  it('sorts as asked and pages with hasMore', async () => {
    const amounts = async (sort: string) => (await search({ sort })).items.map((i) => i.amount);
    expect(await amounts('newest')).toEqual([900, 300, 700, 500]);
    expect(await amounts('oldest')).toEqual([500, 700, 300, 900]);
    expect(await amounts('amount_desc')).toEqual([900, 700, 500, 300]);
    expect(await amounts('amount_asc')).toEqual([300, 500, 700, 900]);
    const p1 = await search({ sort: 'amount_asc', limit: 3 });
    expect(p1.items.map((i) => i.amount)).toEqual([300, 500, 700]);
    expect(p1.hasMore).toBe(true);
    const p2 = await search({ sort: 'amount_asc', limit: 3, offset: 3 });
    expect(p2.items.map((i) => i.amount)).toEqual([900]);
    expect(p2.hasMore).toBe(false);
  });

  it('refuses bad input with 400 and the field named', async () => {
    const bad = async (input: Record<string, unknown>, field: string) => {
      const res = await call(h, 'GET', OP, input, { token: admin.token });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.body).toContain(field);
    };
    await bad({ from: '2026-02-05', to: '2026-02-01' }, 'to');
    await bad({ from: '2025-10-01', to: '2026-02-01' }, 'at most 92 days');
    await bad({ phone: '12345' }, 'phone');
    await bad({ email: 'not-an-email' }, 'email');
    await bad({ sort: 'sideways' }, 'sort');
    await bad({ limit: 101 }, 'limit');
    await bad({ limit: 0 }, 'limit');
    await bad({ status: 'lost' }, 'status');
    await bad({ from: '2026-02-30' }, 'from');
  });

  it('answers finance and support, refuses customers, and writes one audit row per call', async () => {
    expect((await search({ reference: bought[0]!.reference }, finance)).items).toHaveLength(1);
    expect((await search({ reference: bought[0]!.reference }, support)).items).toHaveLength(1);
    const customer = await call(h, 'GET', OP, {}, { token: alice.token });
    expect(customer.statusCode).toBe(403);
    const res = await call(h, 'GET', OP, { reference: bought[2]!.reference }, { token: support.token });
    expect(res.statusCode).toBe(200);
    const audit = await rows<{ action: string; outcome: string; actor_id: string; target_ids: string[] }>(
      h.app.services.db,
      sql`SELECT action, outcome, actor_id::text AS actor_id, target_ids FROM audit_log WHERE request_id = ${res.headers['x-request-id'] as string}`,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'adminSearchTransactions', outcome: 'ok', actor_id: support.id });
    expect(audit[0]!.target_ids).toContain(bought[2]!.id);
  });
});

describe('adminSearchTransactions plans', () => {
  it('each way in reads an index of vtu_transactions, never the whole table', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ reference: bought[0]!.reference }, 'vtu_transactions_reference_key'],
      [{ phone: '08031230001' }, 'vtu_transactions_recipient_idx'],
      [{ userId: alice.id, sort: 'amount_desc' }, 'vtu_transactions_user_idx'],
      [{ email: alice.email }, 'vtu_transactions_user_idx'],
      [{ status: 'failed', from: '2026-02-01', to: '2026-02-05' }, 'vtu_transactions_dashboard_idx'],
    ];
    for (const [input, index] of cases) {
      const i = searchTransactionsInput.parse(input);
      const plan = await h.app.services.db.transaction(async (tx) => {
        // A table this small is cheaper to read whole; the planner is told not to, to show the indexes answer alone.
        await tx.execute(sql`SET LOCAL enable_seqscan = off`);
        // An e-mail reaches vtu's statement as the customer identity resolved it to.
        const f = purchaseSearch(i, searchRange(i, h.clock.now()), i.email === undefined ? undefined : alice.id);
        return rows<{ 'QUERY PLAN': string }>(tx, sql`EXPLAIN ${purchaseSearchStatement(f)}`);
      });
      const text = plan.map((p) => p['QUERY PLAN']).join('\n');
      expect(text, JSON.stringify(input)).toContain(index);
      expect(text, JSON.stringify(input)).not.toContain('Seq Scan on vtu_transactions');
    }
  });
});

describe('getProfile: the operator roles the console navigates by', () => {
  it('answers each operator its roles and a customer none', async () => {
    const roles = async (who: TestUser) => {
      const res = await call(h, 'GET', '/_serverFn/getProfileBearerSettings', {}, { token: who.token });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().profile.operatorRoles as string[];
    };
    expect(await roles(admin)).toContain('admin');
    expect(await roles(finance)).toEqual(['finance']);
    expect(await roles(support)).toEqual(['support']);
    expect(await roles(alice)).toEqual([]);
  });
});
