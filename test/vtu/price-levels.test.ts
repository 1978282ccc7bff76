import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { call, createHarness, expectLedgerOk, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { buyer, mtn, PIN, VTU_ENV, walletBalance } from './helpers.js';
import { setKycTier } from '../helpers/factories.js';

// Issue 45, price levels: each level has its price of a plan or of a service; quotes, lists and purchases are priced
// at the buyer's level and every purchase records the level it was sold at.
let h: Harness;
let customer: TestUser;
let agent: TestUser;
let maker: TestUser;
let checker: TestUser;
const A = (name: string) => `/_serverFn/${name}BearerAdmin`;
const admin = (method: 'GET' | 'POST', name: string, data: Record<string, unknown>, who: TestUser) =>
  call(h, method, A(name), data, { token: who.token });

const V = (name: string) => `/_serverFn/${name}BearerVTU`;
const db = () => h.app.services.db;
const setLevel = (u: TestUser, level: string) =>
  db().execute(sql`INSERT INTO vtu_customer_levels (user_id, level, source, updated_at) VALUES (${u.id}, ${level}, 'grant', now())
                   ON CONFLICT (user_id) DO UPDATE SET level = EXCLUDED.level`);
const setPrice = (level: string, service: string, plan: string, kind: string, value: bigint) =>
  db()
    .execute(sql`INSERT INTO vtu_level_prices (level, service, plan, kind, value, updated_at) VALUES (${level}, ${service}, ${plan}, ${kind}, ${value}, now())
                   ON CONFLICT (level, service, plan) DO UPDATE SET kind = EXCLUDED.kind, value = EXCLUDED.value`);
const clearCaches = () => h.app.services.vtu.levels.clear();
const plans = async (u: TestUser) => (await call(h, 'GET', V('listDataPlans'), { network: 'mtn' }, { token: u.token })).json().items;

beforeAll(async () => {
  h = await createHarness({ env: { ...VTU_ENV, ADMIN_EMAILS: 'admin@example.com,checker@example.com' } });
  maker = await signIn(h, 'admin@example.com');
  checker = await signIn(h, 'checker@example.com');
  customer = await buyer(h, 20_000);
  agent = await buyer(h, 20_000);
  await setLevel(agent, 'agent');
  await db().execute(sql`INSERT INTO vtu_markups (service, provider, kind, value, updated_at) VALUES ('data', '', 'flat', 5000, now())
                         ON CONFLICT (service, provider) DO UPDATE SET kind = 'flat', value = 5000`);
}, 180_000);
afterAll(async () => h?.close());

describe('prices per level', () => {
  it('an agent lists, quotes and buys a plan at the agent price; the customer keeps the customer price; the row and receipt record the level', async () => {
    const plan = (await plans(customer))[0];
    // The customer price is wholesale + the ₦50 data markup; the agent's fixed price is ₦10 under it.
    const customerPrice = plan.price;
    await setPrice('agent', 'data', plan.plan_id, 'fixed', BigInt(Math.round(customerPrice * 100)) - 1000n);
    clearCaches();
    const agentPlan = (await plans(agent)).find((p: { plan_id: string }) => p.plan_id === plan.plan_id);
    expect(agentPlan.price).toBe(customerPrice - 10);
    expect((await plans(customer)).find((p: { plan_id: string }) => p.plan_id === plan.plan_id).price).toBe(customerPrice);

    const q = await call(h, 'POST', V('quotePurchase'), { service: 'data', network: 'mtn', plan_id: plan.plan_id }, { token: agent.token });
    expect(q.json()).toMatchObject({ total: customerPrice - 10, level: { id: 'agent', name: 'Agent' } });

    // The customer price confirmed by an agent is a changed price: the agent pays the agent price.
    const buy = (u: TestUser, amount: number) =>
      call(h, 'POST', V('buyData'), { network: 'mtn', phone: mtn('4501'), plan_id: plan.plan_id, amount, pin: PIN }, { token: u.token });
    expect((await buy(agent, customerPrice)).json().error.code).toBe('PRICE_CHANGED');
    const before = await walletBalance(h, agent.id);
    const res = await buy(agent, customerPrice - 10);
    expect(res.statusCode, res.body).toBe(200);
    const tx = res.json().transaction;
    expect(tx).toMatchObject({ status: 'success', amount: customerPrice - 10, priceLevel: 'agent' });
    expect(before - (await walletBalance(h, agent.id))).toBe(customerPrice - 10);
    const [row] = await rows<{ price_level: string; amount: string; wholesale: string; markup: string }>(
      db(),
      sql`SELECT price_level, amount::text AS amount, wholesale::text AS wholesale, markup::text AS markup FROM vtu_transactions WHERE id = ${tx.id}`,
    );
    expect(row.price_level).toBe('agent');
    expect(BigInt(row.wholesale) + BigInt(row.markup)).toBe(BigInt(row.amount));
    expect(BigInt(row.markup) >= 0n).toBe(true);

    const receipt = await call(h, 'POST', '/_serverFn/signReceiptBearerReceipts', { reference: tx.id }, { token: agent.token });
    expect(receipt.statusCode, receipt.body).toBe(200);
    expect(receipt.json().receipt.lines).toContainEqual({ label: 'Price level', value: 'Agent' });

    const plain = await buy(customer, customerPrice);
    expect(plain.json().transaction).toMatchObject({ amount: customerPrice, priceLevel: 'customer' });
    await expectLedgerOk(h);
  });

  it('a fixed price never sells below wholesale, and a level with no rule pays what the customer pays', async () => {
    const plan = (await plans(customer))[1];
    await setPrice('agent', 'data', plan.plan_id, 'fixed', 1n);
    clearCaches();
    const q = (
      await call(h, 'POST', V('quotePurchase'), { service: 'data', network: 'mtn', plan_id: plan.plan_id }, { token: agent.token })
    ).json();
    // Wholesale is the customer price less the ₦50 markup: a fixed price of 1 kobo sells at wholesale.
    expect(q.total).toBe(plan.price - 50);
    // Airtime has no agent rule: the agent pays the customer's markup; a percent agent rule changes it.
    const air = async (u: TestUser) =>
      (await call(h, 'POST', V('quotePurchase'), { service: 'airtime', amount: 1000 }, { token: u.token })).json();
    expect((await air(agent)).total).toBe((await air(customer)).total);
    await setPrice('agent', 'airtime', '', 'percent', 150n);
    clearCaches();
    expect(await air(agent)).toMatchObject({ amount: 1000, fee: 15, total: 1015 });
  });

  it('a plan switched off is not listed and is refused with a clear 400 before any debit', async () => {
    const plan = (await plans(customer))[2];
    await db().execute(sql`INSERT INTO vtu_disabled_plans (service, plan, disabled_at) VALUES ('data', ${plan.plan_id}, now())`);
    clearCaches();
    expect((await plans(customer)).map((p: { plan_id: string }) => p.plan_id)).not.toContain(plan.plan_id);
    const before = await walletBalance(h, customer.id);
    const res = await call(
      h,
      'POST',
      V('buyData'),
      { network: 'mtn', phone: mtn('4502'), plan_id: plan.plan_id, amount: plan.price, pin: PIN },
      { token: customer.token },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('This plan is not on sale at the moment; choose another');
    expect(await walletBalance(h, customer.id)).toBe(before);
    await db().execute(sql`DELETE FROM vtu_disabled_plans WHERE plan = ${plan.plan_id}`);
    clearCaches();
  });

  it("each instance keeps a customer's level until their row changes, by whichever writer: the next quote follows", async () => {
    const u = await buyer(h, 1_000);
    const plan = (await plans(u))[0];
    await setPrice('agent', 'data', plan.plan_id, 'fixed', BigInt(Math.round(plan.price * 100)) - 2000n);
    clearCaches();
    const quote = async () =>
      (await call(h, 'POST', V('quotePurchase'), { service: 'data', network: 'mtn', plan_id: plan.plan_id }, { token: u.token })).json();
    expect(await quote()).toMatchObject({ total: plan.price, level: { id: 'customer' } });
    // Written by hand, as another instance or an operator's SQL would: the row's trigger announces the customer
    // (vtu_levels_changed), and this instance drops its copy when the message lands (at once on PGlite).
    await setLevel(u, 'agent');
    const deadline = Date.now() + 10_000;
    let q = await quote();
    while (q.level?.id !== 'agent' && Date.now() < deadline) q = await quote();
    expect(q).toMatchObject({ total: plan.price - 20, level: { id: 'agent' } });
    await db().execute(sql`DELETE FROM vtu_customer_levels WHERE user_id = ${u.id}`);
    q = await quote();
    while (q.level?.id !== 'customer' && Date.now() < deadline + 10_000) q = await quote();
    expect(q).toMatchObject({ total: plan.price, level: { id: 'customer' } });
    // The agent's price of this plan as the first test set it.
    await setPrice('agent', 'data', plan.plan_id, 'fixed', BigInt(Math.round(plan.price * 100)) - 1000n);
    clearCaches();
  });
});

describe('the console: catalogue, plan switches and four-eyes price settings', () => {
  it("lists the plans with wholesale, each level's price and margin", async () => {
    const res = await admin('GET', 'adminCatalogue', { service: 'data', network: 'mtn' }, maker);
    expect(res.statusCode, res.body).toBe(200);
    const cat = res.json();
    expect(cat.levels.map((l: { id: string }) => l.id)).toEqual(['customer', 'agent', 'reseller', 'api_partner']);
    const listed = await plans(customer);
    const item = cat.items.find((i: { plan: string }) => i.plan === listed[3].plan_id);
    expect(item.enabled).toBe(true);
    for (const p of item.prices) expect(p.margin).toBeCloseTo(p.price - item.wholesale, 2);
    expect(item.prices.find((p: { level: string }) => p.level === 'customer')).toMatchObject({
      price: listed[3].price,
      margin: 50,
      rule: null,
    });
    expect((await admin('GET', 'adminCatalogue', { service: 'airtime' }, maker)).statusCode).toBe(400);
  });

  it('a price change is previewed, waits for a second admin, and applies once approved; audited', async () => {
    const plan = (await plans(customer))[3];
    const change = { level: 'reseller', service: 'data', plan: plan.plan_id, kind: 'fixed', value: plan.price - 30 };
    const pre = await admin('POST', 'adminPreviewPriceChange', change, maker);
    expect(pre.statusCode, pre.body).toBe(200);
    expect(pre.json().changes).toEqual([
      { plan: plan.plan_id, name: plan.name, wholesale: plan.price - 50, before: plan.price, after: plan.price - 30, margin: 20 },
    ]);
    const asked = await admin('POST', 'adminRequestPriceChange', { ...change, reason: 'reseller promo' }, maker);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toMatchObject({ status: 'pending', approval: { action: 'price_setting', status: 'pending' } });
    const id = asked.json().approval.id;
    const reseller = await buyer(h, 5_000);
    await setLevel(reseller, 'reseller');
    const priceOf = async () => (await plans(reseller)).find((p: { plan_id: string }) => p.plan_id === plan.plan_id).price;
    expect(await priceOf()).toBe(plan.price);
    expect((await admin('POST', 'adminApproveRequest', { id }, maker)).statusCode).toBe(403);
    const ok = await admin('POST', 'adminApproveRequest', { id, reason: 'checked' }, checker);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await priceOf()).toBe(plan.price - 30);
    const audits = await rows<{ action: string }>(
      db(),
      sql`SELECT action FROM audit_log WHERE action IN ('adminRequestPriceChange', 'adminApproveRequest') ORDER BY created_at`,
    );
    expect(audits.map((a) => a.action)).toEqual(expect.arrayContaining(['adminRequestPriceChange', 'adminApproveRequest']));
    // Clear 400s: a fixed price for a whole service, a level that does not exist.
    const bad = await admin(
      'POST',
      'adminRequestPriceChange',
      { level: 'agent', service: 'data', kind: 'fixed', value: 10, reason: 'x y z' },
      maker,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('a fixed price is for one plan: name the plan');
    const none = await admin(
      'POST',
      'adminRequestPriceChange',
      { level: 'gold', service: 'data', kind: 'flat', value: 10, reason: 'x y z' },
      maker,
    );
    expect(none.statusCode).toBe(400);
  });

  it("granting a level waits for a second admin; a customer's level shows in getMyPriceLevel", async () => {
    const u = await buyer(h, 1_000);
    const mine = async () => (await call(h, 'GET', V('getMyPriceLevel'), {}, { token: u.token })).json();
    expect((await mine()).level).toEqual({ id: 'customer', name: 'Customer', rank: 0, apiKeys: false });
    const asked = await admin('POST', 'adminRequestLevelGrant', { userId: u.id, level: 'api_partner', reason: 'signed partner' }, maker);
    expect(asked.json()).toMatchObject({ status: 'pending' });
    expect((await mine()).level.id).toBe('customer');
    expect((await admin('POST', 'adminApproveRequest', { id: asked.json().approval.id }, maker)).statusCode).toBe(403);
    expect((await admin('POST', 'adminApproveRequest', { id: asked.json().approval.id }, checker)).statusCode).toBe(200);
    expect(await mine()).toEqual({ ok: true, level: { id: 'api_partner', name: 'API partner', rank: 3, apiKeys: true }, above: [] });
    const nobody = await admin(
      'POST',
      'adminRequestLevelGrant',
      { userId: '00000000-0000-4000-8000-000000000000', level: 'agent', reason: 'x y z' },
      maker,
    );
    expect(nobody.statusCode).toBe(404);
  });

  it('a plan switched off in the console is not listed and not sold; on again, it is; audited', async () => {
    const plan = (await plans(customer))[4];
    const off = await admin('POST', 'adminSetPlanEnabled', { service: 'data', plan: plan.plan_id, enabled: false }, maker);
    expect(off.statusCode, off.body).toBe(200);
    expect((await plans(customer)).map((p: { plan_id: string }) => p.plan_id)).not.toContain(plan.plan_id);
    const q = await call(
      h,
      'POST',
      V('quotePurchase'),
      { service: 'data', network: 'mtn', plan_id: plan.plan_id },
      { token: customer.token },
    );
    expect(q.statusCode).toBe(400);
    const cat = (await admin('GET', 'adminCatalogue', { service: 'data', network: 'mtn' }, maker)).json();
    expect(cat.items.find((i: { plan: string }) => i.plan === plan.plan_id).enabled).toBe(false);
    await admin('POST', 'adminSetPlanEnabled', { service: 'data', plan: plan.plan_id, enabled: true }, maker);
    expect((await plans(customer)).map((p: { plan_id: string }) => p.plan_id)).toContain(plan.plan_id);
    const [a] = await rows<{ n: number }>(db(), sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'adminSetPlanEnabled'`);
    expect(a.n).toBe(2);
  });
});

describe('the customer: my level and its upgrade', () => {
  it('pays the upgrade fee once from the wallet (a repeat pays nothing), the ledger balanced; a granted-only level is refused', async () => {
    const u = await buyer(h, 3_000);
    const mine = (await call(h, 'GET', V('getMyPriceLevel'), {}, { token: u.token })).json();
    expect(mine.above).toEqual([
      { id: 'agent', name: 'Agent', rank: 1, apiKeys: true, upgradeFee: 2000, how: 'upgrade' },
      { id: 'reseller', name: 'Reseller', rank: 2, apiKeys: true, upgradeFee: 10000, how: 'upgrade' },
      { id: 'api_partner', name: 'API partner', rank: 3, apiKeys: true, upgradeFee: null, how: 'granted' },
    ]);
    const up = (level: string, pin = PIN) => call(h, 'POST', V('upgradePriceLevel'), { level, pin }, { token: u.token });
    expect((await up('reseller')).json().error.code).toBe('INSUFFICIENT_FUNDS');
    expect((await up('agent', '9999')).json().error.code).toBe('INVALID_PIN');
    expect(await walletBalance(h, u.id)).toBe(3000);
    const [first, second] = await Promise.all([up('agent'), up('agent')]);
    expect(first.statusCode, first.body).toBe(200);
    expect(second.statusCode, second.body).toBe(200);
    expect([first.json().paid, second.json().paid].sort()).toEqual([0, 2000]);
    expect(first.json().level.id).toBe('agent');
    expect(await walletBalance(h, u.id)).toBe(1000);
    expect((await up('agent')).json()).toMatchObject({ paid: 0, level: { id: 'agent' } });
    expect(await walletBalance(h, u.id)).toBe(1000);
    const [n] = await rows<{ n: number }>(
      db(),
      sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE reference = ${`lvl_${u.id}_agent`}`,
    );
    expect(n.n).toBe(1);
    const granted = await up('api_partner');
    expect(granted.statusCode).toBe(400);
    expect(granted.json().error.message).toBe('API partner is granted by the business, not bought; contact support');
    expect((await up('customer')).statusCode).toBe(400);
    await expectLedgerOk(h);
  });
});

describe('the console: levels through four-eyes (adminRequestPriceLevel)', () => {
  const levels = async () =>
    (
      (await admin('GET', 'adminCatalogue', { service: 'data', network: 'mtn' }, maker)).json().levels as {
        id: string;
        name: string;
        rank: number;
      }[]
    ).map((l) => `${l.rank}:${l.id}:${l.name}`);
  const ask = (data: Record<string, unknown>) =>
    admin('POST', 'adminRequestPriceLevel', { upgradeFee: null, reason: 'level work', ...data }, maker);
  const approve = async (res: Awaited<ReturnType<typeof ask>>) => {
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'pending', approval: { action: 'price_setting', status: 'pending' } });
    const id = res.json().approval.id;
    // The admin who asked cannot approve their own request.
    expect((await admin('POST', 'adminApproveRequest', { id, reason: 'mine' }, maker)).statusCode).toBe(403);
    const ok = await admin('POST', 'adminApproveRequest', { id, reason: 'checked' }, checker);
    expect(ok.statusCode, ok.body).toBe(200);
  };

  it('adds a level at a held rank (the levels from it move down one), renames it, and moves another up in one approval', async () => {
    expect(await levels()).toEqual(['0:customer:Customer', '1:agent:Agent', '2:reseller:Reseller', '3:api_partner:API partner']);
    const add = await ask({ level: 'gold', name: 'Gold', rank: 2, upgradeFee: 5000 });
    // Nothing changes until a second admin approves.
    expect(await levels()).toEqual(['0:customer:Customer', '1:agent:Agent', '2:reseller:Reseller', '3:api_partner:API partner']);
    await approve(add);
    expect(await levels()).toEqual([
      '0:customer:Customer',
      '1:agent:Agent',
      '2:gold:Gold',
      '3:reseller:Reseller',
      '4:api_partner:API partner',
    ]);

    await approve(await ask({ level: 'gold', name: 'Gold partner', rank: 2, upgradeFee: 5000 }));
    expect(await levels()).toContain('2:gold:Gold partner');

    // Up: API partner to rank 1, the levels from 1 to its old rank one step down the list.
    await approve(await ask({ level: 'api_partner', name: 'API partner', rank: 1 }));
    expect(await levels()).toEqual([
      '0:customer:Customer',
      '1:api_partner:API partner',
      '2:agent:Agent',
      '3:gold:Gold partner',
      '4:reseller:Reseller',
    ]);
    // Down: API partner back to the top, the levels after its old rank one step up.
    await approve(await ask({ level: 'api_partner', name: 'API partner', rank: 4 }));
    expect(await levels()).toEqual([
      '0:customer:Customer',
      '1:agent:Agent',
      '2:gold:Gold partner',
      '3:reseller:Reseller',
      '4:api_partner:API partner',
    ]);
    // A customer at the new level sees the levels above theirs in the new order.
    const u = await buyer(h, 1_000);
    await setLevel(u, 'gold');
    clearCaches();
    const mine = (await call(h, 'GET', V('getMyPriceLevel'), {}, { token: u.token })).json();
    expect(mine.level).toMatchObject({ id: 'gold', name: 'Gold partner', rank: 2 });
    expect(mine.above.map((l: { id: string }) => l.id)).toEqual(['reseller', 'api_partner']);

    // Rank 0 stays the default level's.
    expect((await ask({ level: 'gold', name: 'Gold partner', rank: 0 })).statusCode).toBe(400);
    expect((await ask({ level: 'customer', name: 'Customer', rank: 2 })).statusCode).toBe(400);
  });
});

describe('the console: e-PIN prices in the catalogue and through four-eyes', () => {
  const E = (name: string) => `/_serverFn/${name}BearerVTU`;
  const epinPrice = (level: string, value: number, extra: Record<string, unknown> = {}) => ({
    level,
    service: 'epin',
    kind: 'discount',
    value,
    ...extra,
  });

  it("lists every card with the seller's price and each level's price and margin (only the levels that buy cards)", async () => {
    const res = await admin('GET', 'adminCatalogue', { service: 'epin' }, maker);
    expect(res.statusCode, res.body).toBe(200);
    const cat = res.json();
    expect(cat).toMatchObject({ service: 'epin', provider: 'epins' });
    expect(cat.items).toHaveLength(16);
    const mtn100 = cat.items.find((i: { plan: string }) => i.plan === 'mtn:100');
    // The seller's mtn ₦100 card is ₦97; Agent 1 %, Reseller 2 %, API partner 2.5 % off the face value (migration 1240).
    expect(mtn100).toMatchObject({ network: 'mtn', wholesale: 97, enabled: true });
    expect(mtn100.prices).toEqual([
      { level: 'agent', name: 'Agent', price: 99, margin: 2, rule: { kind: 'discount', value: 1 } },
      { level: 'reseller', name: 'Reseller', price: 98, margin: 1, rule: { kind: 'discount', value: 2 } },
      { level: 'api_partner', name: 'API partner', price: 97.5, margin: 0.5, rule: { kind: 'discount', value: 2.5 } },
    ]);
  });

  it('a level the owner added buys no cards until its e-PIN price is approved; never below the seller’s price', async () => {
    const u = await buyer(h, 20_000);
    await setLevel(u, 'gold');
    clearCaches();
    const buy = () => call(h, 'POST', E('buyEpins'), { network: 'mtn', denomination: 100, quantity: 10, pin: PIN }, { token: u.token });
    expect((await buy()).statusCode).toBe(403);

    // 10 % off ₦100 would be ₦90: every card sells at the seller's price instead (mtn ₦97, the others ₦96).
    const pre = await admin('POST', 'adminPreviewPriceChange', epinPrice('gold', 10), maker);
    expect(pre.statusCode, pre.body).toBe(200);
    expect(pre.json()).toMatchObject({ level: 'gold', service: 'epin', plan: null });
    expect(pre.json().changes).toHaveLength(16);
    expect(pre.json().changes[0]).toEqual({ plan: 'mtn:100', name: 'MTN ₦100', wholesale: 97, before: null, after: 97, margin: 0 });
    for (const c of pre.json().changes) expect(c.margin).toBe(0);

    const asked = await admin('POST', 'adminRequestPriceChange', { ...epinPrice('gold', 10), reason: 'gold cards at cost' }, maker);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toMatchObject({ status: 'pending', approval: { action: 'price_setting' } });
    expect((await buy()).statusCode).toBe(403);
    const id = asked.json().approval.id;
    expect((await admin('POST', 'adminApproveRequest', { id }, maker)).statusCode).toBe(403);
    const approved = await admin('POST', 'adminApproveRequest', { id, reason: 'checked' }, checker);
    expect(approved.statusCode, approved.body).toBe(200);

    const before = await walletBalance(h, u.id);
    const res = await buy();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().batch).toMatchObject({ status: 'delivered', unitPrice: 97, amount: 970, priceLevel: 'gold' });
    expect(before - (await walletBalance(h, u.id))).toBe(970);
    // Sold at the seller's price: the posting has no margin for us.
    const entries = await rows<{ code: string; amount: string }>(
      db(),
      sql`SELECT a.code, e.amount::text AS amount FROM ledger_entries e JOIN accounts a ON a.id = e.account_id
          JOIN ledger_transactions t ON t.id = e.transaction_id WHERE t.reference = ${`epin:${res.json().batch.id}`}`,
    );
    expect(entries.some((e) => e.code === 'revenue')).toBe(false);
    await expectLedgerOk(h);

    // A second change: 1.5 % off, ₦98.50 a card, the preview showing the price before.
    const next = await admin('POST', 'adminPreviewPriceChange', epinPrice('gold', 1.5), maker);
    expect(next.json().changes[0]).toMatchObject({ plan: 'mtn:100', before: 97, after: 98.5, margin: 1.5 });
    const again = await admin('POST', 'adminRequestPriceChange', { ...epinPrice('gold', 1.5), reason: 'gold margin' }, maker);
    expect((await admin('POST', 'adminApproveRequest', { id: again.json().approval.id, reason: 'checked' }, checker)).statusCode).toBe(200);
    const cat = (await admin('GET', 'adminCatalogue', { service: 'epin' }, maker)).json();
    expect(cat.items[0].prices.find((p: { level: string }) => p.level === 'gold')).toMatchObject({ price: 98.5, margin: 1.5 });
    expect((await buy()).json().batch).toMatchObject({ unitPrice: 98.5, amount: 985 });
    await expectLedgerOk(h);
  });

  it('refuses with clear 400s: a discount for a plan service, a markup or a plan for cards, more than 50 %, an unknown level', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ level: 'agent', service: 'data', kind: 'discount', value: 5 }, 'kind'],
      [{ level: 'agent', service: 'epin', kind: 'percent', value: 5 }, 'kind'],
      [epinPrice('agent', 5, { plan: 'mtn:100' }), 'plan'],
      [epinPrice('agent', 60), 'value'],
    ];
    for (const [data, path] of cases) {
      const res = await admin('POST', 'adminRequestPriceChange', { ...data, reason: 'x y z' }, maker);
      expect(res.statusCode, res.body).toBe(400);
      expect(JSON.stringify(res.json().error)).toContain(path);
      expect((await admin('POST', 'adminPreviewPriceChange', data, maker)).statusCode).toBe(400);
    }
    const none = await admin('POST', 'adminRequestPriceChange', { ...epinPrice('platinum', 5), reason: 'x y z' }, maker);
    expect(none.statusCode).toBe(400);
  });
});

describe('the console: whether a level allows live API keys (adminRequestPriceLevel)', () => {
  const ask = (data: Record<string, unknown>) =>
    admin(
      'POST',
      'adminRequestPriceLevel',
      { level: 'silver', name: 'Silver', rank: 7, upgradeFee: null, reason: 'keys work', ...data },
      maker,
    );
  const approve = async (res: Awaited<ReturnType<typeof ask>>) => {
    expect(res.statusCode, res.body).toBe(200);
    const ok = await admin('POST', 'adminApproveRequest', { id: res.json().approval.id, reason: 'checked' }, checker);
    expect(ok.statusCode, ok.body).toBe(200);
  };
  const keys = async () =>
    Object.fromEntries(
      (await rows<{ id: string; api_keys: boolean }>(db(), sql`SELECT id, api_keys FROM vtu_price_levels`)).map((r) => [r.id, r.api_keys]),
    );

  it('is set with the level through four-eyes; a change that does not say keeps it; live keys follow it', async () => {
    // As seeded: every level but the default one.
    expect(await keys()).toMatchObject({ customer: false, agent: true, reseller: true, api_partner: true });
    await approve(await ask({}));
    expect((await keys()).silver).toBe(false);
    const u = await buyer(h, 1_000);
    await setKycTier(h, u.id, 2);
    await setLevel(u, 'silver');
    clearCaches();
    const live = () =>
      call(h, 'POST', '/_serverFn/createApiKeyBearerDevelopers', { name: 'shop', mode: 'live', scopes: ['read'] }, { token: u.token });
    const refused = await live();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toContain('you are at Silver');
    const asked = await ask({ apiKeys: true });
    expect((await keys()).silver).toBe(false);
    await approve(asked);
    expect((await keys()).silver).toBe(true);
    clearCaches();
    expect((await call(h, 'GET', V('getMyPriceLevel'), {}, { token: u.token })).json().level).toMatchObject({
      id: 'silver',
      apiKeys: true,
    });
    expect((await live()).statusCode).toBe(200);
    // A rename that does not say keeps the setting; switching it off is one more request.
    await approve(await ask({ name: 'Silver partner' }));
    expect((await keys()).silver).toBe(true);
    await approve(await ask({ apiKeys: false }));
    expect((await keys()).silver).toBe(false);
    expect((await ask({ apiKeys: 'yes' })).statusCode).toBe(400);
  });
});
