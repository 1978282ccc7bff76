import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, expectLedgerOk, fundWallet, signIn, type Harness } from '../helpers/harness.js';
import { balance, count, createIntent, sandboxPay, user } from './helpers.js';

/** createTopupIntent, getTopupIntent, startProcessorTopup, verifyProcessorTopup, getTopupReceipt, listPaymentHistory. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const create = (token: string, data: Record<string, unknown>) =>
  call(h, 'POST', '/_serverFn/createTopupIntentBearerWallet', data, { token });
const verify = (token: string, reference: string) =>
  call(h, 'POST', '/_serverFn/verifyProcessorTopupBearerPayments', { reference }, { token });

describe('createTopupIntent', () => {
  it('returns the intent with its checkout URL; processor defaults to the configured one', async () => {
    const u = await user(h);
    const r = await create(u.token, { amount: 100 });
    expect(r.statusCode).toBe(200);
    const i = r.json();
    expect(Object.keys(i)).toEqual(
      expect.arrayContaining(['id', 'reference', 'amount', 'status', 'checkoutUrl', 'processor', 'createdAt']),
    );
    expect(i).toMatchObject({ amount: 100, status: 'pending', processor: 'sandbox' });
    expect(i.reference).toMatch(/^top_[0-9A-Z]{26}$/);
    expect(i.checkoutUrl).toMatch(/^http:\/\/localhost:3000\/sandbox\/processor\/checkout\//);
    const page = await h.app.inject({ method: 'GET', url: new URL(i.checkoutUrl).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('₦100.00');
    expect(page.body).toContain('id="pay"');
    expect((await create(u.token, { amount: 150, processor: 'sandbox' })).statusCode).toBe(200);
    const bad = await create(u.token, { amount: 150, processor: 'paypal' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('sandbox');
  });

  it('enforces 100 to 1,000,000 naira (spec 8)', async () => {
    const rich = await user(h, { tier: 3 }); // no balance cap, so only the bounds decide
    for (const amount of [99.99, 0, -100, 1_000_000.01, 100.001, '500', null]) {
      const r = await create(rich.token, { amount });
      expect(r.statusCode, String(amount)).toBe(400);
      expect(r.json().error.code).toBe('VALIDATION_FAILED');
    }
    expect((await create(rich.token, { amount: 1_000_000 })).statusCode).toBe(200);
    expect((await create(rich.token, { amount: 100 })).statusCode).toBe(200);
  });

  it('refuses up front a top-up that would pass the tier balance cap, naming the headroom', async () => {
    const u = await user(h, { tier: 1 }); // cap ₦300,000
    await fundWallet(h, u.id, 250_000);
    const r = await create(u.token, { amount: 60_000 });
    expect(r.statusCode).toBe(400);
    expect(r.json().error.code).toBe('AMOUNT_OUT_OF_RANGE');
    expect(r.json().error.message).toContain('₦50,000.00');
    expect((await create(u.token, { amount: 50_000 })).statusCode).toBe(200);
    const t2 = await user(h, { tier: 2 }); // cap ₦500,000
    expect((await create(t2.token, { amount: 500_000 })).statusCode).toBe(200);
    expect((await create(t2.token, { amount: 500_000.01 })).json().error.code).toBe('AMOUNT_OUT_OF_RANGE');
  });
});

describe('getTopupIntent and verifyProcessorTopup', () => {
  it('shows own intents only (404 for anyone else and for unknown references)', async () => {
    const a = await user(h);
    const b = await user(h);
    const i = await createIntent(h, a, 200);
    expect(
      (await call(h, 'GET', '/_serverFn/getTopupIntentBearerWallet', { reference: i.reference }, { token: a.token })).json(),
    ).toMatchObject({ id: i.id, status: 'pending' });
    expect((await call(h, 'GET', '/_serverFn/getTopupIntentBearerWallet', { reference: i.reference }, { token: b.token })).statusCode).toBe(
      404,
    );
    expect((await call(h, 'GET', '/_serverFn/getTopupIntentBearerWallet', { reference: 'top_nope' }, { token: a.token })).statusCode).toBe(
      404,
    );
    expect((await call(h, 'GET', '/_serverFn/getTopupIntentBearerWallet', { reference: "x' OR 1=1" }, { token: a.token })).statusCode).toBe(
      400,
    );
    expect((await verify(b.token, i.reference)).statusCode).toBe(404);
  });

  it('settles a paid top-up whose webhook was lost, once', async () => {
    const u = await user(h);
    const i = await createIntent(h, u, 2000);
    expect((await verify(u.token, i.reference)).json()).toMatchObject({ status: 'pending', credited: false });
    const p = await sandboxPay(h, { reference: i.reference, outcome: 'success', webhook: false });
    expect(p.json().webhook.delivered).toBe(false);
    const v = await verify(u.token, i.reference);
    expect(v.json()).toMatchObject({ status: 'success', credited: true, amountPaid: 2000, channel: 'card' });
    expect((await verify(u.token, i.reference)).json()).toMatchObject({ status: 'success', credited: false });
    expect(await balance(h, u)).toBe(2000);
    const state = (await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: u.token })).json();
    expect(state.log[0]).toMatchObject({ type: 'topup', amount: 2000, balanceAfter: 2000, reference: `payin:sandbox:${i.reference}` });
    expect(await count(h, sql`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${u.id} AND kind = 'topup_credited'`)).toBe(1);
    await expectLedgerOk(h);
  });

  it('records failed and abandoned checkouts; a later payment still credits', async () => {
    const u = await user(h);
    const f = await createIntent(h, u, 300);
    await sandboxPay(h, { reference: f.reference, outcome: 'failed' });
    expect((await verify(u.token, f.reference)).json()).toMatchObject({ status: 'failed', credited: false });
    const a = await createIntent(h, u, 400);
    await sandboxPay(h, { reference: a.reference, outcome: 'abandoned' });
    expect((await verify(u.token, a.reference)).json()).toMatchObject({ status: 'abandoned' });
    await sandboxPay(h, { reference: a.reference, outcome: 'success', webhook: true });
    await h.app.services.jobs.drain();
    expect(
      (await call(h, 'GET', '/_serverFn/getTopupIntentBearerWallet', { reference: a.reference }, { token: u.token })).json().status,
    ).toBe('success');
    expect(await balance(h, u)).toBe(400);
    expect((await sandboxPay(h, { reference: a.reference, outcome: 'success' })).statusCode).toBe(409);
  });

  it('credits a payment past the tier cap and flags the wallet for an operator', async () => {
    const u = await user(h, { tier: 1 });
    await fundWallet(h, u.id, 290_000);
    const i = await createIntent(h, u, 10_000);
    await sandboxPay(h, { reference: i.reference, outcome: 'success', amount: 20_000 });
    await h.app.services.jobs.drain();
    expect(await balance(h, u)).toBe(310_000);
    expect(await count(h, sql`SELECT count(*)::int AS n FROM wallet_flags WHERE user_id = ${u.id} AND kind = 'balance_cap_exceeded'`)).toBe(
      1,
    );
    const flag = await h.app.services.db.execute(
      sql`SELECT details FROM wallet_flags WHERE user_id = ${u.id} AND kind = 'balance_cap_exceeded'`,
    );
    expect(flag.rows[0]).toEqual({ details: { balanceAfter: 310_000, cap: 300_000, tier: 1 } });
    const admin = await signIn(h, 'admin@example.com');
    const s = await call(
      h,
      'GET',
      '/_serverFn/adminSearchPaymentsBearerAdmin',
      { kind: 'settlements', flagged: 'true', userId: u.id },
      { token: admin.token },
    );
    expect(s.json().items).toEqual([expect.objectContaining({ reference: i.reference, flagged: true, amount: 20_000 })]);
    await expectLedgerOk(h);
  });
});

describe('adminSearchPayments order', () => {
  it('lists newest first by default, oldest first or by amount when sort says so; events refuse an amount sort', async () => {
    const u = await user(h, { tier: 1 });
    const made: string[] = [];
    for (const amount of [500, 9_000, 2_000]) {
      h.clock.advance(60_000);
      made.push((await createIntent(h, u, amount)).reference);
    }
    const [a, b, c] = made;
    const admin = await signIn(h, 'admin@example.com');
    const search = (q: Record<string, unknown>) =>
      call(h, 'GET', '/_serverFn/adminSearchPaymentsBearerAdmin', { userId: u.id, ...q }, { token: admin.token });
    const order = async (sort?: string) => (await search(sort ? { sort } : {})).json().items.map((x: { reference: string }) => x.reference);
    expect(await order()).toEqual([c, b, a]);
    expect(await order('oldest')).toEqual([a, b, c]);
    expect(await order('amount_desc')).toEqual([b, c, a]);
    expect(await order('amount_asc')).toEqual([a, c, b]);
    expect((await search({ kind: 'events', sort: 'oldest' })).statusCode).toBe(200);
    const bad = await search({ kind: 'events', sort: 'amount_desc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('Sort must be newest or oldest for events, which have no amount');
    expect((await search({ sort: 'amount' })).json().error.message).toBe('Sort must be newest, oldest, amount_desc or amount_asc');
  });
});

describe('startProcessorTopup, getTopupReceipt, listPaymentHistory', () => {
  it('initializes with the caller e-mail and callback URL and validates them', async () => {
    const u = await user(h);
    const start = (data: Record<string, unknown>) =>
      call(h, 'POST', '/_serverFn/startProcessorTopupBearerPayments', data, { token: u.token });
    const ok = await start({ amount: 1000, email: 'payer@example.com', callbackUrl: `${h.config.publicUrl}/paid` });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ amount: 1000, status: 'pending' });
    expect(ok.json().authorizationUrl).toBe(ok.json().checkoutUrl);
    for (const bad of [
      { amount: 1000, email: 'nope', callbackUrl: 'https://a.example/x' },
      { amount: 1000, email: 'a@b.co', callbackUrl: 'ftp://a.example/x' },
      { amount: 1000, email: 'a@b.co', callbackUrl: 'not a url' },
      { amount: 99, email: 'a@b.co', callbackUrl: 'https://a.example/x' },
      { amount: 1000, email: 'a@b.co' },
    ])
      expect((await start(bad)).statusCode, JSON.stringify(bad)).toBe(400);
  });

  it('gives a receipt only for a paid top-up of the caller', async () => {
    const u = await user(h);
    const other = await user(h);
    const i = await createIntent(h, u, 750);
    const early = await call(h, 'GET', '/_serverFn/getTopupReceiptBearerPayments', { reference: i.reference }, { token: u.token });
    expect(early.statusCode).toBe(409);
    await sandboxPay(h, { reference: i.reference, outcome: 'success' });
    await h.app.services.jobs.drain();
    const r = await call(h, 'GET', '/_serverFn/getTopupReceiptBearerPayments', { reference: i.reference }, { token: u.token });
    expect(r.statusCode).toBe(200);
    expect(r.json().receipt).toMatchObject({
      reference: i.reference,
      amount: 750,
      requestedAmount: 750,
      currency: 'NGN',
      status: 'success',
    });
    expect(r.json().receipt.creditedTo).not.toContain(u.email);
    expect(
      (await call(h, 'GET', '/_serverFn/getTopupReceiptBearerPayments', { reference: i.reference }, { token: other.token })).statusCode,
    ).toBe(404);
  });

  it('pages the caller history newest first with limit clamped to 100', async () => {
    const u = await user(h);
    for (const amount of [100, 200, 300]) {
      await createIntent(h, u, amount);
      h.clock.advance(1000);
    }
    const list = (q: Record<string, unknown>) => call(h, 'GET', '/_serverFn/listPaymentHistoryBearerPayments', q, { token: u.token });
    const p1 = (await list({ limit: 2 })).json();
    expect(p1).toMatchObject({ limit: 2, offset: 0, hasMore: true });
    expect(p1.items.map((x: { amount: number }) => x.amount)).toEqual([300, 200]);
    const p2 = (await list({ limit: 2, offset: 2 })).json();
    expect(p2.items.map((x: { amount: number }) => x.amount)).toEqual([100]);
    expect(p2.hasMore).toBe(false);
    expect((await list({ limit: 500 })).json().limit).toBe(100);
    expect((await list({ limit: 0 })).statusCode).toBe(400);
    expect((await list({ offset: -1 })).statusCode).toBe(400);
    const other = await user(h);
    expect((await call(h, 'GET', '/_serverFn/listPaymentHistoryBearerPayments', {}, { token: other.token })).json().items).toEqual([]);
  });
});
