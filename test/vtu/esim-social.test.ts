import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { call, createHarness, expectLedgerOk, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { approvalThresholds, setKycTier } from '../helpers/factories.js';
import { buyer, getTx, mtn, PIN, reconcile, refundCount, requestIdOf, simulatorOrders, VTU_ENV, walletBalance } from './helpers.js';

/**
 * Issue 32 items 3 and 5 through the VTU core: travel eSIMs (provider C) and social services (provider D). For each:
 * success, a definite failure refunded once, pending settled by reconciliation, a timeout left processing (never
 * refunded blindly) and then found delivered, and the ledger's invariants after. eSIMs: the ICCID and the LPA
 * activation code, top-up of the buyer's own eSIM only, usage. Social: progress, and partial completion refunding
 * the undelivered part once, with the settlement.
 */
let h: Harness;
let u: TestUser;
let admin: TestUser;
beforeAll(async () => {
  h = await createHarness({ env: VTU_ENV });
  admin = await signIn(h, 'admin@example.com');
  u = await buyer(h, 300_000);
  await setKycTier(h, u.id, 3);
});
afterAll(async () => h.close());

const fn = (name: string) => `/_serverFn/${name}BearerVTU`;
const post = (name: string, input: Record<string, unknown>, who: TestUser = u, key?: string) =>
  call(h, 'POST', fn(name), input, { token: who.token, ...(key ? { headers: { 'idempotency-key': key } } : {}) });
const get = (name: string, input?: Record<string, unknown>, who: TestUser = u) => call(h, 'GET', fn(name), input, { token: who.token });

const partialRefunds = async (reference: string) =>
  (
    await rows<{ n: number }>(
      h.app.services.db,
      sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE reference = ${`vtu_partial_refund_${reference}`}`,
    )
  )[0].n;

async function gbPlan() {
  const res = await get('listEsimPlans', { destination: 'gb' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items[0] as { plan_id: string; price: number; dataMb: number; validityDays: number };
}

async function buyEsim(last4: string) {
  const plan = await gbPlan();
  const before = await walletBalance(h, u.id);
  const res = await post('buyEsim', { plan_id: plan.plan_id, phone: mtn(last4), amount: plan.price, pin: PIN });
  expect(res.statusCode, res.body).toBe(200);
  const tx = res.json().transaction;
  return { tx, plan, before, requestId: await requestIdOf(h, tx.id) };
}

describe('travel eSIMs', () => {
  it('lists destinations and plans with data, validity and retail price', async () => {
    const d = await get('listEsimDestinations');
    expect(d.statusCode, d.body).toBe(200);
    expect(d.json().items).toEqual(
      expect.arrayContaining([
        { id: 'gb', name: 'United Kingdom', kind: 'country' },
        expect.objectContaining({ id: 'europe', kind: 'region' }),
      ]),
    );
    const plan = await gbPlan();
    expect(plan).toMatchObject({ dataMb: 1024, validityDays: 7 });
    expect(plan.price).toBeGreaterThan(0);
  });

  it('a purchase issues the eSIM: ICCID and LPA activation code on the transaction, wallet charged the plan price', async () => {
    const { tx, plan, before } = await buyEsim('4567');
    expect(tx).toMatchObject({ service: 'esim', status: 'success', amount: plan.price, fee: 0 });
    expect(tx.esim.iccid).toMatch(/^89234\d{15}$/);
    expect(tx.esim.activationCode).toMatch(/^LPA:1\$[^$]+\$[0-9A-F]+$/);
    expect(tx.esim).toMatchObject({ destination: 'gb', dataMb: 1024, validityDays: 7, topup: false });
    expect(await walletBalance(h, u.id)).toBeCloseTo(before - plan.price, 2);
    expect(tx.repeat).toEqual({
      operation: 'buyEsim',
      input: { destination: 'gb', plan_id: plan.plan_id, phone: mtn('4567'), amount: plan.price },
    });

    // The buyer is told, without the activation code (a secret shown only on the owner's transaction); the receipt signs.
    await h.app.services.jobs.drain();
    const notes = (await call(h, 'GET', '/_serverFn/listNotificationsBearerNotifications', { limit: 50 }, { token: u.token })).json().items;
    const notice = notes.find((n: any) => n.kind === 'purchase_delivered' && n.data?.transactionId === tx.id);
    expect(notice.body).toContain('travel eSIM');
    expect(notice.body).toContain('scan its QR code');
    expect(JSON.stringify(notice)).not.toContain(tx.esim.activationCode);
    const receipt = await call(h, 'POST', '/_serverFn/signReceiptBearerReceipts', { reference: tx.reference }, { token: u.token });
    expect(receipt.statusCode, receipt.body).toBe(200);
    expect(JSON.stringify(receipt.json().receipt)).not.toContain(tx.esim.activationCode);

    const usage = await post('getMyEsimUsage', { id: tx.id });
    expect(usage.statusCode, usage.body).toBe(200);
    expect(usage.json()).toMatchObject({ iccid: tx.esim.iccid, status: 'not_installed', dataTotalMb: 1024, dataUsedMb: 0 });
  });

  it('buy again keeps the destination with the plan; its input with the PIN buys the same eSIM plan again', async () => {
    const { tx, plan } = await buyEsim('4568');
    expect(tx.repeat.input).toMatchObject({ destination: tx.esim.destination, plan_id: plan.plan_id });
    const again = await post(tx.repeat.operation, { ...tx.repeat.input, pin: PIN });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().transaction).toMatchObject({ service: 'esim', status: 'success', amount: plan.price, esim: { destination: 'gb' } });
    expect(again.json().transaction.repeat).toEqual(tx.repeat);
    // A destination that is not the plan's is refused before any debit.
    const before = await walletBalance(h, u.id);
    const wrong = await post('buyEsim', { ...tx.repeat.input, destination: 'europe', pin: PIN });
    expect(wrong.statusCode, wrong.body).toBe(400);
    expect(wrong.json().error).toMatchObject({ code: 'VALIDATION_FAILED', issues: [{ path: 'destination' }] });
    expect(await walletBalance(h, u.id)).toBe(before);
  });

  it('tops up only an eSIM of the caller, with a plan of its destination', async () => {
    const { tx } = await buyEsim('4568');
    const plans = (await get('listEsimPlans', { destination: 'gb' })).json().items;
    const us = (await get('listEsimPlans', { destination: 'us' })).json().items[0];

    const other = await buyer(h, 50_000);
    const before = await walletBalance(h, other.id);
    const stranger = await post(
      'topUpEsim',
      { esim_id: tx.id, plan_id: plans[1].plan_id, amount: plans[1].price, pin: PIN },
      other,
      crypto.randomUUID(),
    );
    expect(stranger.statusCode, stranger.body).toBe(404);
    expect(await walletBalance(h, other.id)).toBe(before);

    const wrongPlace = await post('topUpEsim', { esim_id: tx.id, plan_id: us.plan_id, amount: us.price, pin: PIN }, u, crypto.randomUUID());
    expect(wrongPlace.statusCode, wrongPlace.body).toBe(400);

    const mine = await walletBalance(h, u.id);
    const topUp = { esim_id: tx.id, plan_id: plans[1].plan_id, amount: plans[1].price, pin: PIN };
    const key = crypto.randomUUID();
    const top = await post('topUpEsim', topUp, u, key);
    expect(top.statusCode, top.body).toBe(200);
    // The same Idempotency-Key again answers the same top-up: charged once (checked below).
    expect((await post('topUpEsim', topUp, u, key)).json().transaction.id).toBe(top.json().transaction.id);
    expect(top.json().transaction).toMatchObject({
      service: 'esim',
      status: 'success',
      recipient: tx.esim.iccid,
      esim: { iccid: tx.esim.iccid, topup: true },
    });
    expect(top.json().transaction.esim.activationCode).toBeUndefined();
    expect(await walletBalance(h, u.id)).toBeCloseTo(mine - plans[1].price, 2);
    expect((await post('getMyEsimUsage', { id: tx.id })).json()).toMatchObject({ dataTotalMb: 1024 + 3072 });
    // A top-up is not an eSIM of its own: neither topped up nor looked up by its id.
    expect((await post('getMyEsimUsage', { id: top.json().transaction.id })).statusCode).toBe(404);
  });

  it('"buy again" of a top-up is another top-up of the same eSIM (topUpEsim, its esim_id), not a new eSIM', async () => {
    const { tx } = await buyEsim('4569');
    const plan = (await get('listEsimPlans', { destination: 'gb' })).json().items[2];
    const top = await post('topUpEsim', { esim_id: tx.id, plan_id: plan.plan_id, amount: plan.price, pin: PIN }, u, crypto.randomUUID());
    expect(top.statusCode, top.body).toBe(200);
    expect(top.json().transaction.repeat).toEqual({
      operation: 'topUpEsim',
      input: { esim_id: tx.id, plan_id: plan.plan_id, amount: plan.price },
    });
    // The eSIM's own purchase still repeats as a purchase.
    expect(tx.repeat.operation).toBe('buyEsim');
    const mine = await walletBalance(h, u.id);
    const again = await post(
      top.json().transaction.repeat.operation,
      { ...top.json().transaction.repeat.input, pin: PIN },
      u,
      crypto.randomUUID(),
    );
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().transaction).toMatchObject({
      status: 'success',
      recipient: tx.esim.iccid,
      esim: { iccid: tx.esim.iccid, topup: true },
    });
    expect(await walletBalance(h, u.id)).toBeCloseTo(mine - plan.price, 2);
    expect((await post('getMyEsimUsage', { id: tx.id })).json()).toMatchObject({ dataTotalMb: 1024 + 2 * 10240 });
  });

  it('1111: the provider fails before issuing: failed and refunded once', async () => {
    const { tx, before } = await buyEsim('1111');
    expect(tx.status).toBe('failed');
    expect(tx.esim).toBeUndefined();
    expect(await refundCount(h, tx.reference)).toBe(1);
    expect(await walletBalance(h, u.id)).toBe(before);
    expect((await post('getMyEsimUsage', { id: tx.id })).statusCode).toBe(404);
  });

  it('2222: pending, then reconciliation finds it issued', async () => {
    const { tx } = await buyEsim('2222');
    expect(tx.status).toBe('processing');
    await reconcile(h);
    const done = await getTx(h, u, tx.id);
    expect(done.status).toBe('success');
    expect(done.esim.activationCode).toMatch(/^LPA:1\$/);
  });

  it('an operator requery settles a pending eSIM through the kind adapter: the ICCID and activation code arrive', async () => {
    const { tx } = await buyEsim('2222');
    const early = await call(h, 'POST', '/_serverFn/adminRequeryVtuTransactionBearerAdmin', { id: tx.id }, { token: admin.token });
    expect(early.json(), early.body).toMatchObject({ providerStatus: 'pending', transaction: { status: 'processing' } });
    h.clock.advance(6000);
    const late = await call(h, 'POST', '/_serverFn/adminRequeryVtuTransactionBearerAdmin', { id: tx.id }, { token: admin.token });
    expect(late.json(), late.body).toMatchObject({ providerStatus: 'delivered', transaction: { status: 'success' } });
    expect((await getTx(h, u, tx.id)).esim.activationCode).toMatch(/^LPA:1\$/);
  });

  it('4444: a timeout stays processing with no refund; the provider had it, so reconciliation delivers it', async () => {
    const { tx, before, plan, requestId } = await buyEsim('4444');
    expect(tx.status).toBe('processing');
    expect(await refundCount(h, tx.reference)).toBe(0);
    expect(await walletBalance(h, u.id)).toBeCloseTo(before - plan.price, 2);
    await reconcile(h);
    expect((await getTx(h, u, tx.id)).status).toBe('success');
    expect(await refundCount(h, tx.reference)).toBe(0);
    expect((await simulatorOrders(h, requestId)).filter((o) => o.status === 'delivered')).toHaveLength(1);
  });
});

async function socialService(id = 'ig-followers') {
  const res = await get('listSocialServices', { platform: 'instagram' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items.find((s: any) => s.service_id === id) as { service_id: string; pricePer1000: number; min: number; max: number };
}

async function order(link: string, quantity = 1000) {
  const s = await socialService();
  const q = await post('quotePurchase', { service: 'social', plan_id: s.service_id, quantity });
  expect(q.statusCode, q.body).toBe(200);
  const before = await walletBalance(h, u.id);
  const res = await post('orderSocial', { service_id: s.service_id, link, quantity, amount: q.json().total, pin: PIN });
  expect(res.statusCode, res.body).toBe(200);
  const tx = res.json().transaction;
  return { tx, total: q.json().total as number, before, requestId: await requestIdOf(h, tx.id) };
}

describe('social services', () => {
  it('lists services by platform with the price per 1,000 and the bounds; refuses a quantity out of them before any debit', async () => {
    const s = await socialService();
    expect(s).toMatchObject({ min: 100, max: 10_000 });
    expect(s.pricePer1000).toBeGreaterThanOrEqual(2500);
    const before = await walletBalance(h, u.id);
    const res = await post('orderSocial', {
      service_id: s.service_id,
      link: 'https://instagram.com/shop',
      quantity: 50,
      amount: 125,
      pin: PIN,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(await walletBalance(h, u.id)).toBe(before);
  });

  it('an order completes with its start count; the price is the quantity at the rate', async () => {
    const { tx, total, before } = await order('https://instagram.com/naija_shop');
    expect(tx).toMatchObject({
      service: 'social',
      status: 'success',
      amount: total,
      quantity: 1000,
      recipient: 'https://instagram.com/naija_shop',
    });
    expect(tx.social).toMatchObject({ quantity: 1000, delivered: 1000, remains: 0 });
    expect(tx.social.startCount).toBeGreaterThanOrEqual(100);
    expect(tx.social.refunded).toBeUndefined();
    expect(await walletBalance(h, u.id)).toBeCloseTo(before - total, 2);
    expect(await partialRefunds(tx.reference)).toBe(0);
  });

  it('6464: part delivered; the undelivered part is refunded once, with the settlement, and stays refunded once', async () => {
    const { tx, total, before } = await order('https://instagram.com/p/shop6464');
    expect(tx.status).toBe('success');
    expect(tx.social).toMatchObject({ quantity: 1000, delivered: 600, remains: 400 });
    // 400 of 1,000 undelivered: 40% of the wholesale and of the markup, each rounded down to the kobo.
    expect(tx.social.refunded).toBeGreaterThan(0);
    expect(tx.social.refunded).toBeLessThanOrEqual(total * 0.4 + 0.001);
    expect(await partialRefunds(tx.reference)).toBe(1);
    expect(await refundCount(h, tx.reference)).toBe(0);
    expect(await walletBalance(h, u.id)).toBeCloseTo(before - total + tx.social.refunded, 2);
    await h.app.services.jobs.drain();
    const notes = (await call(h, 'GET', '/_serverFn/listNotificationsBearerNotifications', { limit: 50 }, { token: u.token })).json().items;
    expect(notes.find((n: any) => n.kind === 'purchase_delivered' && n.data?.transactionId === tx.id).body).toContain(
      '400 could not be delivered',
    );
    // Reconciliation and the order's progress look-up change nothing on a settled order.
    await reconcile(h);
    expect((await post('getMySocialOrderProgress', { id: tx.id })).json()).toMatchObject({ status: 'success', remains: 400 });
    expect(await partialRefunds(tx.reference)).toBe(1);
    expect(await walletBalance(h, u.id)).toBeCloseTo(before - total + tx.social.refunded, 2);
  });

  it('6262: in progress, then reconciliation finds it partly completed: the undelivered part refunded once with that settlement', async () => {
    const { tx, total, before } = await order('https://instagram.com/p/later6262');
    expect(tx.status).toBe('processing');
    expect(tx.social).toMatchObject({ delivered: 0, remains: 1000 });
    expect(await partialRefunds(tx.reference)).toBe(0);
    await reconcile(h);
    const done = await getTx(h, u, tx.id);
    expect(done).toMatchObject({ status: 'success', social: { quantity: 1000, delivered: 600, remains: 400 } });
    expect(done.social.refunded).toBeGreaterThan(0);
    expect(await partialRefunds(tx.reference)).toBe(1);
    await reconcile(h);
    expect(await partialRefunds(tx.reference)).toBe(1);
    expect(await walletBalance(h, u.id)).toBeCloseTo(before - total + done.social.refunded, 2);
  });

  it("an operator's delivered resolution refunds the undelivered part once: the operator's remains, else the provider's progress", async () => {
    h.clock.advance(60_000); // past the sign-in code's cooldown: resolving asks for a fresh sign-in (step-up)
    const { token } = await signIn(h, 'admin@example.com');
    const resolve = (id: string, input: Record<string, unknown>) =>
      call(
        h,
        'POST',
        '/_serverFn/adminResolveVtuTransactionBearerAdmin',
        { id, note: 'provider support confirmed it', ...input },
        { token },
      );
    // One operator's resolution takes effect at once above this threshold (the default waits for a second: test/approvals).
    await approvalThresholds(h, { vtu_resolution: 100_000 });
    try {
      // 4040: the provider never answers about it; the operator learnt out of band that 250 of 1,000 never came.
      const stuck = await order('https://instagram.com/p/stuck4040');
      expect(stuck.tx.status).toBe('processing');
      expect((await resolve(stuck.tx.id, { outcome: 'failed', remains: 250 })).statusCode).toBe(400);
      expect((await resolve(stuck.tx.id, { outcome: 'delivered', remains: 1001 })).statusCode).toBe(400);
      const done = await resolve(stuck.tx.id, { outcome: 'delivered', remains: 250 });
      expect(done.statusCode, done.body).toBe(200);
      const tx = done.json().transaction;
      expect(tx).toMatchObject({ status: 'success', social: { quantity: 1000, delivered: 750, remains: 250 } });
      // 250 of 1,000: a quarter of the price, rounded down to the kobo.
      expect(tx.social.refunded).toBeGreaterThan(0);
      expect(tx.social.refunded).toBeLessThanOrEqual(stuck.total * 0.25 + 0.001);
      expect(await partialRefunds(tx.reference)).toBe(1);
      expect(await walletBalance(h, u.id)).toBeCloseTo(stuck.before - stuck.total + tx.social.refunded, 2);
      expect((await resolve(stuck.tx.id, { outcome: 'delivered', remains: 250 })).statusCode).toBe(409);
      await reconcile(h);
      expect(await partialRefunds(tx.reference)).toBe(1);

      // 6262: the provider's progress says partly completed by the time the operator resolves without a number.
      const later = await order('https://instagram.com/p/slow6262');
      expect(later.tx.status).toBe('processing');
      h.clock.advance(6000);
      const byProvider = await resolve(later.tx.id, { outcome: 'delivered' });
      expect(byProvider.statusCode, byProvider.body).toBe(200);
      expect(byProvider.json().transaction).toMatchObject({ status: 'success', social: { delivered: 600, remains: 400 } });
      expect(await partialRefunds(later.tx.reference)).toBe(1);
      expect(await walletBalance(h, u.id)).toBeCloseTo(later.before - later.total + byProvider.json().transaction.social.refunded, 2);

      // A kind delivered whole or not at all takes no remains.
      const esim = await buyEsim('4040');
      expect((await resolve(esim.tx.id, { outcome: 'delivered', remains: 1 })).statusCode).toBe(400);
      await expectLedgerOk(h);
    } finally {
      await approvalThresholds(h, { vtu_resolution: 0 });
    }
  });

  it('1111: cancelled by the provider: failed and refunded once', async () => {
    const { tx, before } = await order('https://x.com/me/status/1111');
    expect(tx.status).toBe('failed');
    expect(await refundCount(h, tx.reference)).toBe(1);
    expect(await walletBalance(h, u.id)).toBe(before);
  });

  it('2222: in progress (progress look-up: nothing delivered yet), then reconciliation finds it completed', async () => {
    const { tx } = await order('https://tiktok.com/@me2222', 200);
    expect(tx.status).toBe('processing');
    const progress = await post('getMySocialOrderProgress', { id: tx.id });
    expect(progress.statusCode, progress.body).toBe(200);
    expect(progress.json()).toMatchObject({ status: 'processing', providerStatus: 'pending', quantity: 200, remains: 200 });
    await reconcile(h);
    expect(await getTx(h, u, tx.id)).toMatchObject({ status: 'success', social: { delivered: 200, remains: 0 } });
  });

  it('4444: a timeout stays processing with no refund, then reconciliation finds it completed', async () => {
    const { tx, before, total } = await order('https://youtube.com/watch4444', 300);
    expect(tx.status).toBe('processing');
    expect(await refundCount(h, tx.reference)).toBe(0);
    expect(await walletBalance(h, u.id)).toBeCloseTo(before - total, 2);
    await reconcile(h);
    expect((await getTx(h, u, tx.id)).status).toBe('success');
    expect(await refundCount(h, tx.reference)).toBe(0);
  });

  it('a markup on social prices the order, and a partial order gives back the undelivered share of the markup too', async () => {
    const set = (value: number) =>
      call(h, 'POST', '/_serverFn/adminSetMarkupBearerAdmin', { service: 'social', kind: 'percent', value }, { token: admin.token });
    expect((await set(10)).statusCode).toBe(200);
    try {
      // ig-followers: 2,500 naira per 1,000 wholesale; 10% on top.
      const { tx, total, before } = await order('https://instagram.com/p/markup6464');
      expect(total).toBe(2750);
      expect(tx.social).toMatchObject({ delivered: 600, remains: 400, refunded: 1100 });
      expect(await walletBalance(h, u.id)).toBeCloseTo(before - 2750 + 1100, 2);
      const [part] = await rows<{ entries: number }>(
        h.app.services.db,
        sql`SELECT count(*)::int AS entries FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
            WHERE t.reference = ${`vtu_partial_refund_${tx.reference}`}`,
      );
      // Wallet back, float out (the provider's part), revenue out (the markup's part).
      expect(part.entries).toBe(3);
    } finally {
      await set(0);
    }
  });

  it("another customer's order is not found", async () => {
    const { tx } = await order('https://instagram.com/mine');
    const other = await signIn(h);
    expect((await post('getMySocialOrderProgress', { id: tx.id }, other)).statusCode).toBe(404);
  });
});

describe("the caller's own", () => {
  it('listMyVtuTransactions filters by the new services; another customer sees none of them', async () => {
    for (const service of ['esim', 'social']) {
      const mine = await call(h, 'GET', '/api/v1/listMyVtuTransactions', { service, limit: 100, offset: 0 }, { token: u.token });
      expect(mine.statusCode, mine.body).toBe(200);
      expect(mine.json().items.length).toBeGreaterThan(0);
      expect(mine.json().items.every((t: any) => t.service === service)).toBe(true);
    }
    const other = await buyer(h, 0);
    expect(
      (await call(h, 'GET', '/api/v1/listMyVtuTransactions', { service: 'esim', limit: 10, offset: 0 }, { token: other.token })).json()
        .items,
    ).toEqual([]);
  });
});

describe('after every case', () => {
  it('the ledger balances and every account agrees with its entries', async () => {
    await expectLedgerOk(h);
  });
});
