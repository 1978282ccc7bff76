import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, expectLedgerOk, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { user, walletBalance } from '../helpers/factories.js';
import { createIntent, sandboxPay } from '../payments/helpers.js';
import { DAY, MINUTE } from '../../src/kernel/clock.js';

// Issue 41: four-eyes one person cannot get around, tried by real operator sessions. Each case failed before: an
// operator credited its own wallet 20 x ₦999.99, raised the threshold with its own step-up, approved through a second
// account it had just made finance, and corrected a ₦1,000 top-up by +₦25,000 twice.
let h: Harness;
let admin: TestUser;
let checker: TestUser;

const post = (name: string, data: Record<string, unknown>, who: TestUser) =>
  call(h, 'POST', `/_serverFn/${name}BearerAdmin`, data, { token: who.token });
const get = (name: string, q: Record<string, unknown>, who: TestUser) =>
  call(h, 'GET', `/_serverFn/${name}BearerAdmin`, q, { token: who.token });

beforeAll(async () => {
  h = await createHarness({ env: { ADMIN_EMAILS: 'admin@example.com,checker@example.com' } });
  admin = await signIn(h, 'admin@example.com');
  checker = await signIn(h, 'checker@example.com');
});

/** Moves the clock past a day; the operators sign in again (their tokens and sessions lapsed meanwhile). */
async function aDayLater() {
  h.clock.advance(DAY + MINUTE);
  admin = await signIn(h, 'admin@example.com');
  checker = await signIn(h, 'checker@example.com');
}
afterAll(async () => h.close());

describe('no operator moves money into or out of their own account', () => {
  it('refuses an adjustment of the maker’s own wallet, small or large, and an approval of a request about the checker', async () => {
    for (const amount of [999.99, 5000, -10]) {
      const own = await post('adminAdjustWallet', { userId: admin.id, amount, reason: 'my own wallet' }, admin);
      expect(own.statusCode, own.body).toBe(403);
      expect(own.json().error.message).toMatch(/own account/);
    }
    const forChecker = (await post('adminAdjustWallet', { userId: checker.id, amount: 5000, reason: 'for my colleague' }, admin)).json();
    expect(forChecker.status).toBe('pending');
    const self = await post('adminApproveRequest', { id: forChecker.approval.id }, checker);
    expect(self.statusCode).toBe(403);
    expect(await walletBalance(h, checker.id)).toBe(0);
    expect(await walletBalance(h, admin.id)).toBe(0);
  });
});

describe('direct adjustments add up per operator over a rolling 24 hours', () => {
  it('20 x ₦999.99 to one customer: the first applies, the rest wait; a day later the budget is back', async () => {
    const u = await user(h);
    const answers = [];
    for (let i = 0; i < 20; i++)
      answers.push((await post('adminAdjustWallet', { userId: u.id, amount: 999.99, reason: `goodwill ${i}` }, admin)).json().status);
    expect(answers.filter((s) => s === 'applied')).toHaveLength(1);
    expect(answers.filter((s) => s === 'pending')).toHaveLength(19);
    expect(await walletBalance(h, u.id)).toBe(999.99);
    // Another operator's budget is its own.
    expect((await post('adminAdjustWallet', { userId: u.id, amount: 500, reason: 'second pair of hands' }, checker)).json().status).toBe(
      'applied',
    );
    await aDayLater();
    expect((await post('adminAdjustWallet', { userId: u.id, amount: 999.99, reason: 'next day' }, admin)).json().status).toBe('applied');
    expect(await walletBalance(h, u.id)).toBe(2499.98);
    await expectLedgerOk(h);
  });

  it('concurrent small adjustments by one operator never pass the threshold together', async () => {
    const u = await user(h);
    await aDayLater();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post('adminAdjustWallet', { userId: u.id, amount: 400, reason: `parallel ${i}` }, checker)),
    );
    const statuses = answers.map((r) => r.json().status);
    expect(statuses.filter((s) => s === 'applied')).toHaveLength(2); // 400 + 400 < 1,000 <= 400 x 3
    expect(await walletBalance(h, u.id)).toBe(800);
    await expectLedgerOk(h);
  });
});

describe('weakening a control', () => {
  it('with two admins, a raised threshold waits for the other admin; finance cannot approve it; a lowered one applies at once', async () => {
    const raised = await post('adminUpdateApprovalSettings', { walletAdjustment: 10_000_000, reason: 'big refunds week' }, admin);
    expect(raised.statusCode, raised.body).toBe(200);
    expect(raised.json()).toMatchObject({ walletAdjustment: 1000, change: { status: 'pending' } });
    const id = raised.json().change.approvalId;
    expect((await post('adminApproveRequest', { id }, admin)).statusCode).toBe(403);
    const u = await user(h);
    await aDayLater();
    expect((await post('adminAdjustWallet', { userId: u.id, amount: 9_000, reason: 'still four-eyes' }, admin)).json().status).toBe(
      'pending',
    );
    // Expired after 24 hours: a fresh request, then the other admin approves it.
    const again = (await post('adminUpdateApprovalSettings', { walletAdjustment: 5000 }, admin)).json();
    const ok = await post('adminApproveRequest', { id: again.change.approvalId }, checker);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await get('adminGetApprovalSettings', {}, admin)).json().walletAdjustment).toBe(5000);
    const lowered = (await post('adminUpdateApprovalSettings', { walletAdjustment: 1000 }, admin)).json();
    expect(lowered).toMatchObject({ walletAdjustment: 1000, change: { status: 'applied' } });
  });

  it('with one admin, a raised threshold takes effect 24 hours later, announced by e-mail', async () => {
    const solo = await createHarness({ env: { ADMIN_EMAILS: 'solo@example.com' } });
    try {
      const only = await signIn(solo, 'solo@example.com');
      const up = await call(
        solo,
        'POST',
        '/_serverFn/adminUpdateApprovalSettingsBearerAdmin',
        { walletAdjustment: 50_000 },
        { token: only.token },
      );
      expect(up.json()).toMatchObject({
        walletAdjustment: 1000,
        change: { status: 'scheduled' },
        scheduled: [{ setting: 'walletAdjustment', value: 50_000 }],
      });
      await solo.app.services.jobs.drain();
      const mail = (await solo.app.inject({ method: 'GET', url: '/sandbox/mailbox?to=solo%40example.com' })).json().items;
      expect(mail.some((m: { subject: string }) => m.subject.includes('adminUpdateApprovalSettings'))).toBe(true);
      const settings = async () => {
        const again = await signIn(solo, 'solo@example.com');
        return call(solo, 'GET', '/_serverFn/adminGetApprovalSettingsBearerAdmin', {}, { token: again.token });
      };
      solo.clock.advance(DAY - MINUTE);
      expect((await settings()).json().walletAdjustment).toBe(1000);
      solo.clock.advance(2 * MINUTE);
      expect((await settings()).json()).toMatchObject({ walletAdjustment: 50_000, scheduled: [] });
    } finally {
      await solo.close();
    }
  });
});

describe('a role granted less than 24 hours ago approves nothing', () => {
  it('an admin’s second account, made finance a moment ago, cannot approve the admin’s request until a day has passed', async () => {
    const sock = await signIn(h, 'sock@example.com');
    expect((await post('adminGrantRole', { email: sock.email, role: 'finance' }, admin)).statusCode).toBe(200);
    const u = await user(h);
    const wait = (await post('adminAdjustWallet', { userId: u.id, amount: 250_000, reason: 'big one' }, admin)).json();
    const early = await post('adminApproveRequest', { id: wait.approval.id }, sock);
    expect(early.statusCode, early.body).toBe(403);
    expect(early.json().error.message).toMatch(/24 hours/);
    expect(await walletBalance(h, u.id)).toBe(0);
    await aDayLater();
    const later = (await post('adminAdjustWallet', { userId: u.id, amount: 250_000, reason: 'big one again' }, admin)).json();
    const ok = await post('adminApproveRequest', { id: later.approval.id }, await signIn(h, 'sock@example.com'));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await walletBalance(h, u.id)).toBe(250_000);
    await expectLedgerOk(h);
  });
});

describe('settlement corrections are bounded by the settlement', () => {
  it('never credits past what the processor reported nor debits past nothing; a second names the first', async () => {
    const u = await user(h);
    const i = await createIntent(h, u, 1000);
    await sandboxPay(h, { reference: i.reference, outcome: 'success' });
    await h.app.services.jobs.drain();
    const s = (await get('adminSearchPayments', { kind: 'settlements', reference: i.reference }, admin)).json().items[0];
    const correct = (amount: number, reason: string) => post('adminCorrectSettlement', { settlementId: s.id, amount, reason }, admin);

    const over = await correct(25_000, 'customer says they paid more');
    expect(over.statusCode, over.body).toBe(409);
    expect((await correct(-1000.01, 'more than it brought in')).statusCode).toBe(409);

    const first = (await correct(-400, 'processor reversed ₦400')).json();
    const approved = (await post('adminApproveRequest', { id: first.approval.id }, checker)).json();
    const firstRef = approved.approval.result.reference as string;
    expect(await walletBalance(h, u.id)).toBe(600);

    const unnamed = await correct(400, 'reversal undone by the processor');
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().error.message).toContain(firstRef);
    expect((await correct(400.01, `undo ${firstRef}`)).statusCode).toBe(409);
    const named = (await correct(400, `undo ${firstRef}: the processor restored it`)).json();
    expect(named.status).toBe('pending');
    // Both corrections of +₦400 approved one after the other: the second no longer fits (the bound holds at approval).
    const twin = (await correct(400, `undo ${firstRef} (sent twice)`)).json();
    expect((await post('adminApproveRequest', { id: named.approval.id }, checker)).statusCode).toBe(200);
    expect((await post('adminApproveRequest', { id: twin.approval.id }, checker)).statusCode).toBe(409);
    expect(await walletBalance(h, u.id)).toBe(1000);
    await expectLedgerOk(h);
  });
});
