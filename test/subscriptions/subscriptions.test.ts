import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { call, createHarness, expectLedgerOk, fundWallet, signIn, type Harness, type TestUser } from '../helpers/harness.js';

const P = '/_serverFn/';
let h: Harness;
let admin: TestUser;
let planId: string;

async function buyer(naira = 20_000) {
  const u = await signIn(h);
  await h.app.services.pins.set(u.id, 'transaction', '1234');
  await fundWallet(h, u.id, naira);
  return u;
}
const balance = async (u: TestUser) =>
  (await call(h, 'GET', `${P}getWalletStateBearerWallet`, undefined, { token: u.token })).json().balance as number;
const submit = (u: TestUser, extra: Record<string, unknown> = {}) =>
  call(
    h,
    'POST',
    `${P}submitSubscriptionOrderBearerSubscriptions`,
    { planId, account: 'ada@example.com', pin: '1234', ...extra },
    { token: u.token },
  );
const move = (id: string, status: string, note?: string) =>
  call(h, 'POST', `${P}adminUpdateSubscriptionOrderBearerAdmin`, { id, status, ...(note ? { note } : {}) }, { token: admin.token });

beforeAll(async () => {
  h = await createHarness();
  admin = await signIn(h, 'admin@example.com');
  const res = await call(
    h,
    'POST',
    `${P}adminCreateSubscriptionPlanBearerAdmin`,
    { service: 'Netflix', category: 'streaming', name: 'Premium 1 month', price: 7000 },
    { token: admin.token },
  );
  expect(res.statusCode).toBe(200);
  planId = res.json().plan.id;
});
afterAll(async () => h?.close());

describe('subscription orders', () => {
  it('lists plans and takes an order with the PIN, holding the money', async () => {
    const u = await buyer();
    const plans = await call(h, 'GET', `${P}listSubscriptionPlansBearerSubscriptions`, { category: 'streaming' }, { token: u.token });
    expect(plans.json().items).toEqual([expect.objectContaining({ id: planId, service: 'netflix', price: 7000 })]);
    expect((await submit(u, { pin: '0000' })).json().error.code).toBe('INVALID_PIN');
    expect((await submit(u, { amount: 6500 })).json().error.code).toBe('PRICE_CHANGED');
    const res = await submit(u, { amount: 7000 });
    expect(res.statusCode).toBe(200);
    expect(res.json().order).toMatchObject({ status: 'pending', amount: 7000, service: 'netflix', account: 'ada@example.com' });
    expect(await balance(u)).toBe(13_000);
    const mine = await call(h, 'GET', `${P}listMySubscriptionOrdersBearerSubscriptions`, { status: 'pending' }, { token: u.token });
    expect(mine.json().items).toHaveLength(1);
    await expectLedgerOk(h);
  });

  it('failure refunds exactly once, even when operators race', async () => {
    const u = await buyer();
    const o = (await submit(u)).json().order;
    expect((await move(o.id, 'processing')).statusCode).toBe(200);
    const fails = await Promise.all(Array.from({ length: 4 }, () => move(o.id, 'failed', 'Account not found')));
    expect(fails.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(fails.filter((r) => r.statusCode === 409)).toHaveLength(3);
    expect(await balance(u)).toBe(20_000);
    expect((await move(o.id, 'fulfilled')).statusCode).toBe(409);
    const n = await rows<{ kind: string; body: string }>(
      h.app.services.db,
      sql`SELECT kind, body FROM notifications WHERE user_id = ${u.id}`,
    );
    expect(n).toEqual([expect.objectContaining({ kind: 'order_update' })]);
    expect(n[0].body).toContain('Account not found');
    await expectLedgerOk(h);
  });

  it('fulfilment settles to revenue; a processing order cannot be cancelled', async () => {
    const u = await buyer();
    const o = (await submit(u)).json().order;
    await move(o.id, 'processing');
    expect((await move(o.id, 'cancelled')).statusCode).toBe(409);
    const done = await move(o.id, 'fulfilled');
    expect(done.json().order.status).toBe('fulfilled');
    expect(await balance(u)).toBe(13_000);
    const got = await call(h, 'GET', `${P}getSubscriptionOrderBearerSubscriptions`, { id: o.id }, { token: u.token });
    expect(got.json().order.status).toBe('fulfilled');
    await expectLedgerOk(h);
  });

  it("another user's order is 404; an inactive plan is refused; junk is 400", async () => {
    const u = await buyer();
    const other = await buyer();
    const o = (await submit(u)).json().order;
    expect((await call(h, 'GET', `${P}getSubscriptionOrderBearerSubscriptions`, { id: o.id }, { token: other.token })).statusCode).toBe(
      404,
    );
    const off = await call(
      h,
      'POST',
      `${P}adminCreateSubscriptionPlanBearerAdmin`,
      { service: 'spotify', category: 'streaming', name: 'Duo', price: 1500, active: false },
      { token: admin.token },
    );
    const r = await submit(u, { planId: off.json().plan.id });
    expect(r.statusCode).toBe(409);
    expect((await submit(u, { planId: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
    expect((await submit(u, { account: 'x' })).statusCode).toBe(400);
    expect(
      (await call(h, 'POST', `${P}adminUpdateSubscriptionOrderBearerAdmin`, { id: o.id, status: 'pending' }, { token: admin.token }))
        .statusCode,
    ).toBe(400);
    expect(
      (await call(h, 'POST', `${P}adminUpdateSubscriptionOrderBearerAdmin`, { id: o.id, status: 'failed' }, { token: u.token })).statusCode,
    ).toBe(403);
    const poor = await signIn(h);
    await h.app.services.pins.set(poor.id, 'transaction', '1234');
    expect((await submit(poor)).json().error.code).toBe('INSUFFICIENT_FUNDS');
    await expectLedgerOk(h);
  });
});
