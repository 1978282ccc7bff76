import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { ProviderError } from '../../src/providers/vtu/types.js';
import { call, createHarness, expectLedgerOk, type Harness, type TestUser } from '../helpers/harness.js';
import { buyer, getTx, mtn, PIN, reconcile, refundCount, requestIdOf, simulatorOrders, VTU_ENV, walletBalance } from './helpers.js';

/**
 * Provider faults (README "VTU sandbox"): 5000 -> HTTP 5xx with nothing recorded, 6666 -> malformed JSON after
 * delivering, 7777 -> slow but inside the adapter timeout, 4444 -> slower than the timeout. None of them is a
 * definite failure: only a requery decides, and "not found" is trusted only after VTU_NOT_FOUND_GRACE_MS.
 */
let h: Harness;
let u: TestUser;
beforeAll(async () => {
  h = await createHarness({ env: VTU_ENV });
  u = await buyer(h, 40_000);
});
afterAll(async () => h.close());

const airtime = (last4: string, amount = 300) =>
  call(h, 'POST', '/api/v1/buyAirtime', { network: 'mtn', phone: mtn(last4), amount, pin: PIN }, { token: u.token });

it('5xx: stays processing, is not refunded inside the grace period, then refunded once when the provider has no record', async () => {
  const before = await walletBalance(h, u.id);
  const tx = (await airtime('5000')).json().transaction;
  expect(tx.status).toBe('processing');
  await reconcile(h);
  expect((await getTx(h, u, tx.id)).status).toBe('processing');
  expect(await walletBalance(h, u.id)).toBe(before - 300);
  await reconcile(h, 61_000);
  const after = await getTx(h, u, tx.id);
  expect(after).toMatchObject({ status: 'failed', failureReason: 'The provider has no record of this purchase' });
  expect(await walletBalance(h, u.id)).toBe(before);
  expect(await refundCount(h, tx.reference)).toBe(1);
  expect(await simulatorOrders(h, await requestIdOf(h, tx.id))).toEqual([]);
  await expectLedgerOk(h);
});

it('5xx from provider A is not a definite failure: no fallback to B', async () => {
  const plans = (await call(h, 'GET', '/api/v1/listDataPlans', { network: 'mtn' }, { token: u.token })).json().items;
  const res = await call(
    h,
    'POST',
    '/api/v1/buyData',
    { network: 'mtn', plan_id: plans[0].plan_id, phone: mtn('5000'), amount: plans[0].price, pin: PIN },
    { token: u.token },
  );
  const tx = res.json().transaction;
  expect(tx).toMatchObject({ status: 'processing', provider: 'a' });
  await reconcile(h);
  expect((await getTx(h, u, tx.id)).provider).toBe('a');
  const orders = await rows(h.app.services.db, sql`SELECT provider FROM sandbox_vtu_orders WHERE recipient = ${mtn('5000')}`);
  expect(orders).toEqual([]);
  await reconcile(h, 61_000);
  expect((await getTx(h, u, tx.id)).status).toBe('failed');
  await expectLedgerOk(h);
});

it('malformed JSON: unknown, then the requery finds it delivered (no refund, one delivery)', async () => {
  for (const path of ['c', 'd'] as const) {
    const res =
      path === 'c'
        ? await airtime('6666')
        : await call(
            h,
            'POST',
            '/api/v1/fundBet',
            { betting_company: 'betking', customer_id: 'BK6666', amount: 400, pin: PIN },
            { token: u.token },
          );
    const tx = res.json().transaction;
    expect(tx.status).toBe('processing');
    await reconcile(h);
    expect((await getTx(h, u, tx.id)).status).toBe('success');
    expect(await refundCount(h, tx.reference)).toBe(0);
    expect(await simulatorOrders(h, await requestIdOf(h, tx.id))).toEqual([{ provider: path, status: 'delivered' }]);
  }
  await expectLedgerOk(h);
});

it('slow but inside the timeout: delivered in the same request; slower than the timeout: processing, then delivered', async () => {
  expect((await airtime('7777')).json().transaction.status).toBe('success');
  const slow = (await airtime('4444')).json().transaction;
  expect(slow.status).toBe('processing');
  await reconcile(h);
  expect((await getTx(h, u, slow.id)).status).toBe('success');
  await expectLedgerOk(h);
});

it('just-in-time float: a low-float refusal funds the provider from the collections pool and retries the same request id', async () => {
  const db = h.app.services.db;
  await db.execute(sql`UPDATE sandbox_vtu_floats SET balance = 0 WHERE provider = 'c'`);
  const fundingsBefore = (
    await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE type = 'vtu_float_funding'`)
  )[0].n;
  const tx = (await airtime('1234', 800)).json().transaction;
  expect(tx.status).toBe('success');
  const fundingsAfter = (
    await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE type = 'vtu_float_funding'`)
  )[0].n;
  expect(fundingsAfter).toBe(fundingsBefore + 1);
  expect(await simulatorOrders(h, await requestIdOf(h, tx.id))).toEqual([{ provider: 'c', status: 'delivered' }]);
  // Our ledger's float and the provider's own balance differ only by what we zeroed by hand.
  await expectLedgerOk(h);
});

it('a catalogue outage serves the last copy, or 502 when there is none', async () => {
  // Provider C's client: every kind's catalogue at C reads through it.
  const c = h.app.services.vtu.providers.c.client;
  const original = c.read;
  const first = await call(h, 'GET', '/api/v1/listElectricityPlans', undefined, { token: u.token });
  expect(first.statusCode).toBe(200);
  (c as any).read = async () => {
    throw new ProviderError('c', 'provider c answered HTTP 503', 'http');
  };
  try {
    h.clock.advance(31 * 60_000);
    const fresh = await buyer(h, 0);
    const stale = await call(h, 'GET', '/api/v1/listElectricityPlans', undefined, { token: fresh.token });
    expect(stale.statusCode).toBe(200);
    expect(stale.json().items).toEqual(first.json().items);
    const none = await call(h, 'GET', '/api/v1/listCablePlans', { identifier: 'startimes' }, { token: fresh.token });
    expect(none.statusCode).toBe(502);
    expect(none.json().error.code).toBe('UPSTREAM_ERROR');
  } finally {
    (c as any).read = original;
  }
});

it('the simulators check credentials and show their delivery record', async () => {
  const bad = await h.app.inject({
    method: 'POST',
    url: '/sandbox/providers/c/api/pay',
    headers: { 'api-key': 'wrong', 'secret-key': 'wrong' },
    payload: { request_id: '202601151000X' },
  });
  expect(bad.statusCode).toBe(401);
  expect(
    (await h.app.inject({ method: 'GET', url: '/sandbox/providers/a/api/data/plans', headers: { authorization: 'Token nope' } }))
      .statusCode,
  ).toBe(401);
  expect((await h.app.inject({ method: 'GET', url: '/sandbox/providers/d/api/v1/balance' })).statusCode).toBe(401);
  const fresh = await buyer(h, 1000); // the clock has moved past the first user's access token
  const tx = (
    await call(h, 'POST', '/api/v1/buyAirtime', { network: 'mtn', phone: mtn('1234'), amount: 150, pin: PIN }, { token: fresh.token })
  ).json().transaction;
  const rec = await h.app.inject({ method: 'GET', url: `/sandbox/vtu/deliveries?requestId=${await requestIdOf(h, tx.id)}` });
  expect(rec.json().items).toEqual([
    expect.objectContaining({ provider: 'c', service: 'airtime', recipient: mtn('1234'), status: 'delivered', amount: 150 }),
  ]);
});
