import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE } from '../../src/kernel/clock.js';
import { call, createHarness, expectLedgerOk, fundWallet, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { balance, count, createIntent, sandboxPay, tier2User, user } from './helpers.js';
import { approvalThresholds } from '../helpers/factories.js';

/** Dedicated virtual accounts, the daily reconciliation, and the operator operations. */
let h: Harness;
let admin: TestUser;
beforeAll(async () => {
  h = await createHarness();
  admin = await signIn(h, 'admin@example.com');
});
afterAll(async () => h?.close());

let seq = 0;
const uname = (p: string) => `${p}${Date.now().toString(36).slice(-5)}${seq++}`;
const state = async (u: TestUser) => (await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: u.token })).json();

describe('dedicated virtual accounts', () => {
  it('is created by a job when Tier 2 is approved and shown in the wallet state', async () => {
    const u = await tier2User(h, { username: uname('dva'), fullName: 'Amaka Eze' });
    expect((await state(u)).dedicatedAccount).toBeNull();
    await h.app.services.db.transaction((tx) => h.app.services.work.change(tx).emit('kyc.approved', { userId: u.id, tier: 2 }).commit());
    await h.app.services.jobs.drain();
    const acc = (await state(u)).dedicatedAccount;
    expect(acc).toMatchObject({ bankName: 'Wema Bank', accountName: 'VTU/AMAKA EZE' });
    expect(acc.accountNumber).toMatch(/^\d{10}$/);
    // Tier 1 approvals create nothing.
    const t1 = await user(h, { tier: 1 });
    await h.app.services.db.transaction((tx) => h.app.services.work.change(tx).emit('kyc.approved', { userId: t1.id, tier: 1 }).commit());
    await h.app.services.jobs.drain();
    expect((await state(t1)).dedicatedAccount).toBeNull();
  });

  it('getOrCreateDedicatedAccount needs Tier 2 and answers the same account every time', async () => {
    const t1 = await user(h, { tier: 1 });
    const refused = await call(h, 'POST', '/_serverFn/getOrCreateDedicatedAccountBearerWallet', {}, { token: t1.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('KYC_TIER_REQUIRED');
    // Racing first calls (three at once, for several users) all answer the one account: on PostgreSQL the racing
    // inserts collide on the account number as well as on the user.
    const users = await Promise.all([1, 2, 3, 4].map(() => tier2User(h, { username: uname('dvb'), fullName: 'Sola Ade' })));
    await Promise.all(
      users.map(async (u) => {
        const answers = await Promise.all(
          [1, 2, 3].map(() => call(h, 'POST', '/_serverFn/getOrCreateDedicatedAccountBearerWallet', {}, { token: u.token })),
        );
        for (const r of answers) expect(r.statusCode, r.body).toBe(200);
        const numbers = new Set(answers.map((r) => r.json().dedicatedAccount.accountNumber));
        expect(numbers.size).toBe(1);
        expect((await state(u)).dedicatedAccount.accountNumber).toBe([...numbers][0]);
      }),
    );
  });

  it('a transfer into the account (channel dedicated_nuban) credits its owner once', async () => {
    const u = await tier2User(h, { username: uname('dvc'), fullName: 'Ifeoma Nnaji' });
    const acc = (await call(h, 'POST', '/_serverFn/getOrCreateDedicatedAccountBearerWallet', {}, { token: u.token })).json()
      .dedicatedAccount;
    const seen: unknown[] = [];
    h.app.services.events.on('wallet.credited', (e) => (seen.push(e), null));
    const t = await h.app.inject({
      method: 'POST',
      url: '/sandbox/processor/dva-transfer',
      payload: { accountNumber: acc.accountNumber, amount: 5000 },
    });
    expect(t.statusCode).toBe(200);
    expect(t.json().webhook.delivered).toBe(true);
    await h.app.services.jobs.drain();
    expect(await balance(h, u)).toBe(5000);
    expect((await state(u)).log[0]).toMatchObject({ type: 'dva_credit', amount: 5000, reference: `payin:sandbox:${t.json().reference}` });
    expect(seen).toContainEqual(expect.objectContaining({ userId: u.id, source: 'dva', amount: 500000n }));
    const hist = (await call(h, 'GET', '/_serverFn/listPaymentHistoryBearerPayments', {}, { token: u.token })).json();
    expect(hist.items[0]).toMatchObject({ kind: 'dva', amount: 5000, status: 'success', channel: 'dedicated_nuban' });
    expect(
      (await h.app.inject({ method: 'POST', url: '/sandbox/processor/dva-transfer', payload: { accountNumber: '9000000000', amount: 10 } }))
        .statusCode,
    ).toBe(404);
    expect(
      (await h.app.inject({ method: 'POST', url: '/sandbox/processor/dva-transfer', payload: { accountNumber: 'abc', amount: 10 } }))
        .statusCode,
    ).toBe(400);
    await expectLedgerOk(h);
  });
});

describe('reconciliation', () => {
  it('settles a transfer into a dedicated account whose webhook was lost, once', async () => {
    const u = await tier2User(h, { username: uname('dvl'), fullName: 'Lost Hook' });
    const acc = (await call(h, 'POST', '/_serverFn/getOrCreateDedicatedAccountBearerWallet', {}, { token: u.token })).json()
      .dedicatedAccount;
    const t = await h.app.inject({
      method: 'POST',
      url: '/sandbox/processor/dva-transfer',
      payload: { accountNumber: acc.accountNumber, amount: 2750, webhook: false },
    });
    expect(t.json().webhook.delivered).toBe(false);
    await h.app.services.jobs.drain();
    expect(await balance(h, u)).toBe(0);
    const r1 = await h.app.services.payments.reconcile();
    const r2 = await h.app.services.payments.reconcile();
    expect(r1.settled).toBe(1);
    expect(r2.settled).toBe(0);
    expect(await balance(h, u)).toBe(2750);
    await expectLedgerOk(h);
  });

  it('the daily cron (00:00 Lagos) settles lost webhooks, marks failed and abandoned intents', async () => {
    h.clock.set('2026-03-10T20:00:00Z');
    const u = await user(h);
    const lost = await createIntent(h, u, 1500);
    const failed = await createIntent(h, u, 600);
    const idle = await createIntent(h, u, 700);
    await sandboxPay(h, { reference: lost.reference, outcome: 'success', webhook: false });
    await sandboxPay(h, { reference: failed.reference, outcome: 'failed' });
    await h.app.services.jobs.drain();
    expect(await balance(h, u)).toBe(0);

    // 23:00 UTC is midnight in Lagos: the slot is enqueued once however often instances tick.
    h.clock.set('2026-03-10T23:00:05Z');
    const again = await signIn(h, u.email);
    await h.app.services.jobs.tickCrons();
    await h.app.services.jobs.tickCrons();
    expect(await count(h, sql`SELECT count(*)::int AS n FROM jobs WHERE queue = 'payments.reconcile'`)).toBe(1);
    await h.app.services.jobs.drain();
    expect(await balance(h, again)).toBe(1500);
    const status = async (ref: string) =>
      (await call(h, 'GET', '/_serverFn/getTopupIntentBearerWallet', { reference: ref }, { token: again.token })).json().status;
    expect(await status(lost.reference)).toBe('success');
    expect(await status(failed.reference)).toBe('failed');
    expect(await status(idle.reference)).toBe('abandoned');
    await expectLedgerOk(h);
  });

  it('leaves young intents alone and never credits twice across runs', async () => {
    const u = await user(h);
    const young = await createIntent(h, u, 800);
    await sandboxPay(h, { reference: young.reference, outcome: 'success', webhook: false });
    const s1 = await h.app.services.payments.reconcile();
    expect(await balance(h, u)).toBe(0); // younger than 10 minutes: the webhook may still come
    h.clock.advance(11 * MINUTE);
    const s2 = await h.app.services.payments.reconcile();
    const s3 = await h.app.services.payments.reconcile();
    expect(s1.settled + s2.settled + s3.settled).toBe(1);
    const again = await signIn(h, u.email);
    expect(await balance(h, again)).toBe(800);
    await expectLedgerOk(h);
  });

  it('adminRunReconciliation runs it now, for operators only', async () => {
    h.clock.advance(HOUR);
    admin = await signIn(h, 'admin@example.com');
    const u = await user(h);
    const i = await createIntent(h, u, 900);
    await sandboxPay(h, { reference: i.reference, outcome: 'success', webhook: false });
    expect((await call(h, 'POST', '/_serverFn/adminRunReconciliationBearerAdmin', {}, { token: u.token })).statusCode).toBe(403);
    const r = await call(h, 'POST', '/_serverFn/adminRunReconciliationBearerAdmin', {}, { token: admin.token });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ settled: 1, errors: 0 });
    expect(await balance(h, u)).toBe(900);
  });
});

describe('operator operations', () => {
  it('adminAdjustWallet credits and debits against the adjustments account with a reason, audited', async () => {
    const u = await user(h);
    const adjust = (data: Record<string, unknown>, token = admin.token) =>
      call(h, 'POST', '/_serverFn/adminAdjustWalletBearerAdmin', data, { token });
    expect((await adjust({ userId: u.id, amount: 100, reason: 'x' }, u.token)).statusCode).toBe(403);
    expect((await adjust({ userId: u.id, amount: 100 })).json().error.issues[0].path).toBe('reason');
    expect((await adjust({ userId: u.id, amount: 100, reason: '  ' })).statusCode).toBe(400);
    expect((await adjust({ userId: u.id, amount: 0, reason: 'nothing' })).statusCode).toBe(400);
    expect((await adjust({ userId: u.id, amount: 1.005, reason: 'fraction' })).statusCode).toBe(400);
    expect((await adjust({ userId: '00000000-0000-4000-8000-000000000000', amount: 10, reason: 'ghost' })).statusCode).toBe(404);
    // ₦2,500 is above the default four-eyes threshold (₦1,000): it waits for a second operator, nothing moves.
    const waits = await adjust({ userId: u.id, amount: 2500, reason: 'refund of a failed top-up, ticket 41' });
    expect(waits.json()).toMatchObject({
      status: 'pending',
      reference: null,
      balance: null,
      approval: { action: 'wallet_adjustment', status: 'pending' },
    });
    expect(await balance(h, u)).toBe(0);
    // With the threshold raised (a setting), one operator's adjustments under it take effect at once, up to the threshold
    // over 24 hours (raising it through the API waits for a second admin or a day: test/approvals).
    await approvalThresholds(h, { wallet_adjustment: 10_000 });
    const up = await adjust({ userId: u.id, amount: 2500, reason: 'refund of a failed top-up, ticket 42' });
    expect(up.statusCode).toBe(200);
    expect(up.json()).toMatchObject({ status: 'applied', approval: null, amount: 2500, balance: 2500 });
    const down = await adjust({ userId: u.id, amount: -500, reason: 'duplicate refund reversed' });
    expect(down.json()).toMatchObject({ balance: 2000 });
    const over = await adjust({ userId: u.id, amount: -2000.01, reason: 'too much' });
    expect(over.json().error.code).toBe('INSUFFICIENT_FUNDS');
    expect(await balance(h, u)).toBe(2000);
    expect(
      await count(
        h,
        sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'adminAdjustWallet' AND outcome = 'ok' AND after_state IS NOT NULL AND subject_id = ${u.id} AND actor_id = ${admin.id}`,
      ),
    ).toBe(2);
    expect(await count(h, sql`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${u.id} AND kind = 'wallet_adjusted'`)).toBe(2);
    expect((await state(u)).log[0]).toMatchObject({
      type: 'adjustment',
      amount: -500,
      description: 'Operator adjustment: duplicate refund reversed',
    });
    await expectLedgerOk(h);
  });

  it('adminSearchPayments finds intents and settlements by reference, user and e-mail', async () => {
    const u = await user(h);
    await fundWallet(h, u.id, 1);
    const i = await createIntent(h, u, 1234);
    await sandboxPay(h, { reference: i.reference, outcome: 'success' });
    await h.app.services.jobs.drain();
    const search = (q: Record<string, unknown>, token = admin.token) =>
      call(h, 'GET', '/_serverFn/adminSearchPaymentsBearerAdmin', q, { token });
    expect((await search({ reference: i.reference }, u.token)).statusCode).toBe(403);
    expect((await search({ reference: i.reference })).json().items).toEqual([
      expect.objectContaining({ kind: 'intent', reference: i.reference, status: 'success', userId: u.id }),
    ]);
    expect((await search({ kind: 'settlements', email: u.email })).json().items).toEqual([
      expect.objectContaining({ kind: 'settlement', amount: 1234, source: 'webhook' }),
    ]);
    expect((await search({ kind: 'events', reference: i.reference })).json().items[0]).toMatchObject({ status: 'credited', deliveries: 1 });
    expect((await search({ kind: 'bogus' })).statusCode).toBe(400);
    expect((await search({ userId: 'nope' })).statusCode).toBe(400);
    h.clock.advance(DAY);
  });
});
