import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { call, createHarness, expectLedgerOk, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { setKycTier } from '../helpers/factories.js';
import { buyer, getTx, mtn, PIN, reconcile, refundCount, requestIdOf, simulatorOrders, VTU_ENV, walletBalance } from './helpers.js';

/**
 * docs/design.md §8 magic endings for every purchase kind they apply to: 1111 refund, 2222 pending -> delivered,
 * 3333 pending -> failed -> refund, 4444 timeout -> stays processing -> delivered without refund, 5555 provider A
 * refuses (data falls back to B; the other kinds are not routed to A and deliver), 4040 never settled (issue 30:
 * every requery "unknown", processing until an operator resolves it), anything else delivered.
 */
let h: Harness;
let u: TestUser;
beforeAll(async () => {
  h = await createHarness({ env: VTU_ENV });
  u = await buyer(h, 200_000);
  // Tier 3: this file spends past the Tier 1 daily limit (checked in purchase-rules).
  await setKycTier(h, u.id, 3);
});
afterAll(async () => h.close());

type Kind = 'airtime' | 'data' | 'cable' | 'electricity' | 'betting' | 'exam';

async function order(kind: Kind, last4: string): Promise<{ path: string; input: Record<string, unknown> }> {
  switch (kind) {
    case 'airtime':
      return { path: '/api/v1/buyAirtime', input: { network: 'mtn', phone: mtn(last4), amount: 500, pin: PIN } };
    case 'data': {
      const plans = (
        await call(h, 'GET', '/api/v1/listDataPlansForCategory', { network: 'mtn', planType: 'SME' }, { token: u.token })
      ).json().items;
      const plan = plans.find((p: any) => p.plan_id === 'mtn-sme-1gb-30d');
      return { path: '/api/v1/buyData', input: { network: 'mtn', plan_id: plan.plan_id, phone: mtn(last4), amount: plan.price, pin: PIN } };
    }
    case 'cable': {
      const plans = (await call(h, 'GET', '/api/v1/listCablePlans', { identifier: 'gotv' }, { token: u.token })).json().items;
      return {
        path: '/api/v1/subscribeCable',
        input: {
          identifier: 'gotv',
          iuc: `123456${last4}`,
          plan_id: plans[0].plan_id,
          amount: plans[0].price,
          phone: mtn('0001'),
          pin: PIN,
        },
      };
    }
    case 'electricity':
      return {
        path: '/api/v1/buyElectricity',
        input: { plan: 'ikeja', meter: `4512345${last4}`, type: 'prepaid', amount: 1500, phone: mtn('0001'), pin: PIN },
      };
    case 'betting':
      return { path: '/api/v1/fundBet', input: { betting_company: 'bet9ja', customer_id: `BET${last4}`, amount: 1000, pin: PIN } };
    case 'exam': {
      const items = (await call(h, 'GET', '/_serverFn/listEducationPinsBearerVTU', undefined, { token: u.token })).json().items;
      const waec = items.find((i: any) => i.plan_id === 'waec');
      return { path: '/api/v1/buyEducationPin', input: { exam: 'waec', quantity: 2, phone: mtn(last4), amount: waec.price * 2, pin: PIN } };
    }
  }
}

async function buy(kind: Kind, last4: string) {
  const before = await walletBalance(h, u.id);
  const { path, input } = await order(kind, last4);
  const res = await call(h, 'POST', path, input, { token: u.token });
  expect(res.statusCode, res.body).toBe(200);
  const tx = res.json().transaction;
  if (tx.status !== 'failed') expect(await walletBalance(h, u.id)).toBeCloseTo(before - tx.amount, 2);
  return { tx, before, requestId: await requestIdOf(h, tx.id) };
}

async function expectDelivered(kind: Kind, tx: any) {
  expect(tx.status).toBe('success');
  if (kind === 'electricity') {
    expect(tx.token).toMatch(/^\d{4}(-\d{4}){4}$/);
    expect(tx.units).toMatch(/kWh$/);
  }
  if (kind === 'cable' || kind === 'electricity') expect(tx.customerName).toMatch(/^Sandbox Customer \d{4}$/);
  if (kind === 'exam') {
    expect(tx.pins).toHaveLength(2);
    expect(tx.pins[0].pin).toMatch(/^\d{12}$/);
  }
}

async function deliveredCount(requestId: string) {
  return (await simulatorOrders(h, requestId)).filter((o) => o.status === 'delivered').length;
}

const KINDS: Kind[] = ['airtime', 'data', 'cable', 'electricity', 'betting', 'exam'];

describe.each(KINDS)('%s', (kind) => {
  it('an ordinary recipient is delivered at once', async () => {
    const { tx, before, requestId } = await buy(kind, '1234');
    await expectDelivered(kind, tx);
    expect(tx.provider).toBe(kind === 'data' ? 'a' : kind === 'betting' || kind === 'exam' ? 'd' : 'c');
    expect(await walletBalance(h, u.id)).toBeCloseTo(before - tx.amount, 2);
    expect(await deliveredCount(requestId)).toBe(1);
    await expectLedgerOk(h);
  });

  it('1111: definite failure is refunded once', async () => {
    const { tx, before, requestId } = await buy(kind, '1111');
    expect(tx.status).toBe('failed');
    expect(tx.failureReason).toBeTruthy();
    expect(await walletBalance(h, u.id)).toBeCloseTo(before, 2);
    expect(await refundCount(h, tx.reference)).toBe(1);
    expect(await deliveredCount(requestId)).toBe(0);
    // data: A failed definitely, so B was tried (and failed too); the others have one provider.
    expect((await simulatorOrders(h, requestId)).map((o) => o.provider)).toEqual(kind === 'data' ? ['a', 'b'] : [tx.provider]);
    await reconcile(h);
    expect(await refundCount(h, tx.reference)).toBe(1);
    const n = await rows<{ kind: string }>(
      h.app.services.db,
      sql`SELECT kind FROM notifications WHERE user_id = ${u.id} AND data->>'transactionId' = ${tx.id}`,
    );
    expect(n.map((x) => x.kind)).toEqual(['purchase_refunded']);
    await expectLedgerOk(h);
  });

  it('2222: pending, then delivered on a requery 5 s later, no refund', async () => {
    const { tx, before, requestId } = await buy(kind, '2222');
    expect(tx.status).toBe('processing');
    await reconcile(h, 2000); // not due yet: still pending
    expect((await getTx(h, u, tx.id)).status).toBe('processing');
    await reconcile(h, 4000);
    const after = await getTx(h, u, tx.id);
    await expectDelivered(kind, after);
    expect(await walletBalance(h, u.id)).toBeCloseTo(before - tx.amount, 2);
    expect(await refundCount(h, tx.reference)).toBe(0);
    expect(await deliveredCount(requestId)).toBe(1);
    await expectLedgerOk(h);
  });

  it('3333: pending, then failed on requery and refunded exactly once', async () => {
    const { tx, before } = await buy(kind, '3333');
    expect(tx.status).toBe('processing');
    expect(await walletBalance(h, u.id)).toBeCloseTo(before - tx.amount, 2);
    await reconcile(h);
    const after = await getTx(h, u, tx.id);
    expect(after.status).toBe('failed');
    expect(await walletBalance(h, u.id)).toBeCloseTo(before, 2);
    await reconcile(h);
    await call(h, 'POST', '/_serverFn/adminRequeryVtuTransactionBearerAdmin', { id: tx.id }, { token: (await admin()).token });
    expect(await refundCount(h, tx.reference)).toBe(1);
    await expectLedgerOk(h);
  });

  it('4444: no answer before the timeout stays processing (no refund), then a requery finds it delivered', async () => {
    const { tx, before, requestId } = await buy(kind, '4444');
    expect(tx.status).toBe('processing');
    expect(await refundCount(h, tx.reference)).toBe(0);
    await reconcile(h);
    const after = await getTx(h, u, tx.id);
    await expectDelivered(kind, after);
    expect(await walletBalance(h, u.id)).toBeCloseTo(before - tx.amount, 2);
    expect(await refundCount(h, tx.reference)).toBe(0);
    // Requeried with the same request id; never re-sent.
    expect(await simulatorOrders(h, requestId)).toEqual([{ provider: tx.provider, status: 'delivered' }]);
    await expectLedgerOk(h);
  });

  it('4040: the provider never settles: every requery answers "unknown", it stays processing, nothing refunded', async () => {
    const { tx, before, requestId } = await buy(kind, '4040');
    expect(tx.status).toBe('processing');
    for (let i = 0; i < 3; i++) await reconcile(h, 20_000);
    expect((await getTx(h, u, tx.id)).status).toBe('processing');
    const requery = await call(
      h,
      'POST',
      '/_serverFn/adminRequeryVtuTransactionBearerAdmin',
      { id: tx.id },
      { token: (await admin()).token },
    );
    expect(requery.json()).toMatchObject({ providerStatus: 'unknown', transaction: { status: 'processing' } });
    expect(await walletBalance(h, u.id)).toBeCloseTo(before - tx.amount, 2);
    expect(await refundCount(h, tx.reference)).toBe(0);
    expect(await simulatorOrders(h, requestId)).toEqual([{ provider: tx.provider, status: 'pending' }]);
    await expectLedgerOk(h);
  });

  it(
    kind === 'data' ? '5555: provider A refuses, B delivers' : '5555: only provider A refuses; this kind is not routed to A and delivers',
    async () => {
      const { tx, before, requestId } = await buy(kind, '5555');
      await expectDelivered(kind, tx);
      expect(await walletBalance(h, u.id)).toBeCloseTo(before - tx.amount, 2);
      if (kind === 'data') {
        expect(tx.provider).toBe('b');
        expect(await simulatorOrders(h, requestId)).toEqual([
          { provider: 'a', status: 'failed' },
          { provider: 'b', status: 'delivered' },
        ]);
      } else expect(await deliveredCount(requestId)).toBe(1);
      await expectLedgerOk(h);
    },
  );
});

let adminUser: TestUser | null = null;
async function admin() {
  if (!adminUser) adminUser = await signIn(h, 'admin@example.com');
  return adminUser;
}

it("the ledger's view of every provider float matches the simulator's balance once all settled", async () => {
  const a = await admin();
  const res = await call(h, 'GET', '/_serverFn/adminListProviderFloatsBearerAdmin', undefined, { token: a.token });
  expect(res.statusCode).toBe(200);
  for (const f of res.json().items) expect(f.ledgerFloat, f.provider).toBe(f.providerBalance);
});
