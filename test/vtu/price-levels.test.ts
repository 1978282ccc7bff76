import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { call, createHarness, expectLedgerOk, type Harness, type TestUser } from '../helpers/harness.js';
import { buyer, mtn, PIN, VTU_ENV, walletBalance } from './helpers.js';

// Issue 45, price levels: each level has its price of a plan or of a service; quotes, lists and purchases are priced
// at the buyer's level and every purchase records the level it was sold at.
let h: Harness;
let customer: TestUser;
let agent: TestUser;

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
  h = await createHarness({ env: VTU_ENV });
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
});
