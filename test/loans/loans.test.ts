import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, expectLedgerOk, fundWallet, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { setKycTier, setUserFacts } from '../helpers/factories.js';
import { DAY } from '../../src/kernel/clock.js';
import { toKobo } from '../../src/kernel/money.js';
import { balances, notificationsOf, purchase, systemBalance, topUp } from '../growth/helpers.js';
import { count, tier2User } from '../payments/helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

/** A user who meets every rule: tier, 30-day-old account, 3 purchases (6,000 naira: limit 3,000 on tier 1). */
async function borrower(tier = 1, purchases = [2000, 2000, 2000]): Promise<TestUser> {
  const u = await signIn(h);
  await setKycTier(h, u.id, tier);
  for (const p of purchases) await purchase(h, u.id, p);
  h.clock.advance(30 * DAY);
  return signIn(h, u.email);
}
/** Money leaving the wallet (as a purchase would), without any event. */
async function spend(u: TestUser, naira: number) {
  const { db, ledger } = h.app.services;
  await db.transaction((tx) =>
    ledger.post(tx, {
      reference: `test_spend_${randomUUID()}`,
      type: 'wallet_debit',
      description: 'test spend',
      entries: [
        { account: { user: u.id, kind: 'wallet' }, amount: -toKobo(naira) },
        { account: { system: 'adjustments' }, amount: toKobo(naira) },
      ],
    }),
  );
}
const overview = async (u: TestUser) =>
  (await call(h, 'GET', '/_serverFn/getLoanOverviewBearerLoans', undefined, { token: u.token })).json();
const take = (u: TestUser, amount: number) => call(h, 'POST', '/_serverFn/takeLoanBearerLoans', { amount }, { token: u.token });
const repay = (u: TestUser, input?: Record<string, unknown>) =>
  call(h, 'POST', '/_serverFn/repayLoanBearerLoans', input, { token: u.token });
const codes = (o: { reasons: { code: string }[] }) => o.reasons.map((r) => r.code).sort();

describe('eligibility and limit', () => {
  it('lists every reason a new account cannot borrow, and refuses takeLoan with NOT_ELIGIBLE', async () => {
    const u = await signIn(h);
    const o = await overview(u);
    expect(o).toMatchObject({
      eligible: false,
      limit: 0,
      outstanding: 0,
      loan: null,
      dueAt: null,
      feePct: 5,
      termDays: 30,
      minAmount: 500,
    });
    expect(codes(o)).toEqual(['ACCOUNT_AGE', 'KYC_TIER', 'PURCHASE_HISTORY']);
    const r = await take(u, 1000);
    expect(r.statusCode).toBe(400);
    expect(r.json().error.code).toBe('NOT_ELIGIBLE');
  });

  it('counts account age to the millisecond and purchases to the last one', async () => {
    const u = await signIn(h);
    const created = h.clock.now().getTime();
    await setKycTier(h, u.id, 1);
    await purchase(h, u.id, 2000);
    await purchase(h, u.id, 2000);
    h.clock.set(new Date(created + 30 * DAY - 1));
    expect(codes(await h.app.services.loans.overview({ id: u.id, kycTier: 1 }))).toEqual(['ACCOUNT_AGE', 'PURCHASE_HISTORY']);
    h.clock.set(new Date(created + 30 * DAY));
    expect(codes(await h.app.services.loans.overview({ id: u.id, kycTier: 1 }))).toEqual(['PURCHASE_HISTORY']);
    await purchase(h, u.id, 2000);
    expect(await h.app.services.loans.overview({ id: u.id, kycTier: 1 })).toMatchObject({ eligible: true, limit: 3000 });
    // Purchases older than 90 days no longer count.
    h.clock.set(new Date(created + 90 * DAY + 1));
    expect(codes(await h.app.services.loans.overview({ id: u.id, kycTier: 1 }))).toEqual(['PURCHASE_HISTORY']);
  });

  it('caps the limit by tier and by half of recent purchases, whichever is lower', async () => {
    expect((await overview(await borrower(1))).limit).toBe(3000);
    expect((await overview(await borrower(1, [20_000, 20_000, 20_000]))).limit).toBe(5000);
    expect((await overview(await borrower(2, [20_000, 20_000, 20_000]))).limit).toBe(20_000);
    expect((await overview(await borrower(3, [20_000, 20_000, 20_000]))).limit).toBe(30_000);
    const low = await overview(await borrower(1, [300, 300, 300]));
    expect(codes(low)).toEqual(['LIMIT_TOO_LOW']);
  });
});

describe('takeLoan', () => {
  it('credits the wallet, books principal plus fee as debt, and enforces the amount edges', async () => {
    const u = await borrower();
    expect((await take(u, 3000.01)).json().error.code).toBe('AMOUNT_OUT_OF_RANGE');
    expect((await take(u, 499.99)).json().error.code).toBe('AMOUNT_OUT_OF_RANGE');
    expect((await take(u, 0)).statusCode).toBe(400);
    const res = await take(u, 2000);
    expect(res.statusCode).toBe(200);
    const loan = res.json().loan;
    expect(loan).toMatchObject({ principal: 2000, fee: 100, lateFee: 0, repaid: 0, outstanding: 2100, status: 'open' });
    expect(new Date(loan.dueAt).getTime() - h.clock.now().getTime()).toBe(30 * DAY);
    expect(await balances(h, u.id)).toMatchObject({ wallet: 2000, loan: -2100 });
    const o = await overview(u);
    expect(o).toMatchObject({ eligible: false, outstanding: 2100, dueAt: loan.dueAt, loan: { id: loan.id } });
    expect(codes(o)).toEqual(['OPEN_LOAN']);
    const second = await take(u, 500);
    expect(second.statusCode).toBe(409);
    await expectLedgerOk(h);
  });

  it('never lends past the tier balance cap (tier 1: 300,000 naira)', async () => {
    const u = await borrower();
    await fundWallet(h, u.id, 299_000);
    const r = await take(u, 1000.01);
    expect(r.statusCode).toBe(400);
    expect(r.json().error.code).toBe('AMOUNT_OUT_OF_RANGE');
    expect((await take(u, 1000)).statusCode).toBe(200);
    expect((await balances(h, u.id)).wallet).toBe(300_000);
  });

  it('opens one loan for 15 parallel takeLoan calls', async () => {
    const u = await borrower();
    const results = await Promise.all(Array.from({ length: 15 }, () => take(u, 1000)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(14);
    expect(await balances(h, u.id)).toMatchObject({ wallet: 1000, loan: -1050 });
    const n = (await h.app.services.db.execute(sql`SELECT COUNT(*)::int AS n FROM loans WHERE user_id = ${u.id}`)) as unknown as {
      rows: { n: number }[];
    };
    expect(n.rows[0].n).toBe(1);
    await expectLedgerOk(h);
  });
});

describe('repayLoan', () => {
  it('repays in part and in full from the wallet, then earns the fee and allows a new loan', async () => {
    const u = await borrower();
    expect((await repay(u)).statusCode).toBe(404);
    await take(u, 2000);
    await spend(u, 2000);
    expect((await repay(u, { amount: 100 })).json().error.code).toBe('INSUFFICIENT_FUNDS');
    await fundWallet(h, u.id, 3000);
    expect((await repay(u, { amount: 2100.01 })).json().error.code).toBe('AMOUNT_OUT_OF_RANGE');
    expect((await repay(u, { amount: -5 })).statusCode).toBe(400);
    const part = await repay(u, { amount: 500 });
    expect(part.json()).toMatchObject({ paid: 500, loan: { outstanding: 1600, repaid: 500, status: 'open' } });
    const revenueBefore = await systemBalance(h, 'revenue');
    const full = await repay(u);
    expect(full.json()).toMatchObject({ paid: 1600, loan: { outstanding: 0, status: 'repaid' } });
    expect(await balances(h, u.id)).toMatchObject({ wallet: 900, loan: 0 });
    expect(await systemBalance(h, 'revenue')).toBe(revenueBefore + 100);
    expect((await repay(u)).statusCode).toBe(404);
    expect((await overview(u)).eligible).toBe(true);
    expect((await take(u, 500)).statusCode).toBe(200);
    await expectLedgerOk(h);
  });

  it('takes one full repayment for 10 parallel repayLoan calls, racing automatic repayments', async () => {
    const u = await borrower();
    await take(u, 2000);
    await fundWallet(h, u.id, 1000); // wallet 3,000 against 2,100 owed
    const results = await Promise.all([...Array.from({ length: 10 }, () => repay(u)), topUp(h, u.id, 50), topUp(h, u.id, 50)]);
    const answers = results.slice(0, 10) as Awaited<ReturnType<typeof repay>>[];
    expect(answers.filter((r) => r.statusCode === 200).length).toBeLessThanOrEqual(1);
    expect(answers.every((r) => r.statusCode === 200 || r.statusCode === 404)).toBe(true);
    expect(await balances(h, u.id)).toMatchObject({ wallet: 1000, loan: 0 });
    await expectLedgerOk(h);
  });

  it('repays automatically from later wallet credits, as far as the balance allows', async () => {
    const u = await borrower();
    await take(u, 2000);
    await spend(u, 2000);
    await topUp(h, u.id, 500);
    expect(await balances(h, u.id)).toMatchObject({ wallet: 0, loan: -1600 });
    await topUp(h, u.id, 5000);
    expect(await balances(h, u.id)).toMatchObject({ wallet: 3400, loan: 0 });
    expect((await overview(u)).loan).toBeNull();
    // No open loan: credits stay in the wallet.
    await topUp(h, u.id, 100);
    expect((await balances(h, u.id)).wallet).toBe(3500);
    await expectLedgerOk(h);
  });
});

describe('repayment from a transfer received', () => {
  it("a transferWalletFn credit repays the recipient's open loan through the job the transfer wrote; without a loan it stays", async () => {
    const u = await borrower();
    await setUserFacts(h, u.id, { username: `lb${u.id.slice(0, 8)}` });
    await take(u, 2000);
    await spend(u, 2000);
    const sender = await tier2User(h, { username: `ls${randomUUID().slice(0, 8)}`, fullName: 'Ngozi Eze', pin: '2468' });
    await fundWallet(h, sender.id, 10_000);
    const send = (naira: number) =>
      call(
        h,
        'POST',
        '/_serverFn/transferWalletFnBearerWallet',
        { username: `lb${u.id.slice(0, 8)}`, amount: naira, pin: '2468' },
        { token: sender.token },
      );
    const repayJobs = () =>
      count(h, sql`SELECT count(*)::int AS n FROM jobs WHERE queue = 'growth.eventRetry' AND payload->'payload'->>'userId' = ${u.id}`);
    expect((await send(1500)).statusCode).toBe(200);
    await h.app.services.jobs.drain();
    expect(await balances(h, u.id)).toMatchObject({ wallet: 0, loan: -600 });
    expect((await send(1000)).statusCode).toBe(200);
    await h.app.services.jobs.drain();
    expect(await balances(h, u.id)).toMatchObject({ wallet: 400, loan: 0 });
    // Repaid: the next credit writes no job at all.
    const jobsBefore = await repayJobs();
    expect((await send(100)).statusCode).toBe(200);
    expect(await repayJobs()).toBe(jobsBefore);
    expect(await balances(h, u.id)).toMatchObject({ wallet: 500, loan: 0 });
    await expectLedgerOk(h);
  });
});

describe('due date', () => {
  it('reminds before the due date, turns overdue exactly at it with the late fee, then blocks new loans after late repayment', async () => {
    const u = await borrower();
    const loan = (await take(u, 2000)).json().loan;
    await spend(u, 2000);
    const due = new Date(loan.dueAt).getTime();
    h.clock.set(new Date(due - 2 * DAY));
    await h.app.services.jobs.drain();
    expect((await notificationsOf(h, u.id, 'loan_due')).map((n) => n.title)).toEqual(['Loan due soon']);
    h.clock.set(new Date(due - 1));
    await h.app.services.jobs.drain();
    await h.app.services.loans.processAllDue();
    expect((await h.app.services.loans.overview({ id: u.id, kycTier: 1 })).loan).toMatchObject({ status: 'open', outstanding: 2100 });
    h.clock.set(new Date(due));
    await h.app.services.jobs.drain();
    const o = await h.app.services.loans.overview({ id: u.id, kycTier: 1 });
    expect(o.loan).toMatchObject({ status: 'overdue', lateFee: 100, outstanding: 2200 });
    expect((await notificationsOf(h, u.id, 'loan_due')).map((n) => n.title)).toEqual(['Loan due soon', 'Loan overdue']);
    expect(await balances(h, u.id)).toMatchObject({ loan: -2200 });
    await h.app.services.loans.processAllDue(); // the sweep charges no second late fee
    expect((await balances(h, u.id)).loan).toBe(-2200);
    // Weekly reminders while overdue, driven by the hourly cron.
    h.clock.set(new Date(due + 7 * DAY - 1));
    await h.app.services.jobs.tickCrons();
    await h.app.services.jobs.drain();
    expect(await notificationsOf(h, u.id, 'loan_due')).toHaveLength(2);
    h.clock.set(new Date(due + 7 * DAY));
    await h.app.services.loans.processAllDue();
    await h.app.services.loans.processAllDue();
    expect((await notificationsOf(h, u.id, 'loan_due')).map((n) => n.title)).toEqual([
      'Loan due soon',
      'Loan overdue',
      'Loan still overdue',
    ]);

    const admin = await signIn(h, 'admin@example.com');
    const listed = await call(h, 'GET', '/_serverFn/adminListLoansBearerAdmin', { status: 'overdue' }, { token: admin.token });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().items.find((l: { id: string }) => l.id === loan.id)).toMatchObject({
      userId: u.id,
      email: u.email,
      outstanding: 2200,
    });
    expect((await call(h, 'GET', '/_serverFn/adminListLoansBearerAdmin', { status: 'late' }, { token: admin.token })).statusCode).toBe(400);
    expect((await call(h, 'GET', '/_serverFn/adminListLoansBearerAdmin', undefined, { token: (await signIn(h)).token })).statusCode).toBe(
      403,
    );

    const revenueBefore = await systemBalance(h, 'revenue');
    await topUp(h, u.id, 3000);
    expect(await balances(h, u.id)).toMatchObject({ wallet: 800, loan: 0 });
    expect(await systemBalance(h, 'revenue')).toBe(revenueBefore + 200);
    expect(codes(await h.app.services.loans.overview({ id: u.id, kycTier: 1 }))).toContain('RECENT_LATE_REPAYMENT');
    await expectLedgerOk(h);
  });

  it('collects the debt from the wallet on the due date when it holds enough', async () => {
    const u = await borrower();
    const loan = (await take(u, 1000)).json().loan;
    await fundWallet(h, u.id, 100); // wallet 1,100 >= 1,050 owed
    h.clock.set(loan.dueAt);
    await h.app.services.jobs.drain();
    expect(await balances(h, u.id)).toMatchObject({ wallet: 50, loan: 0 });
    expect((await h.app.services.loans.overview({ id: u.id, kycTier: 1 })).loan).toBeNull();
    await expectLedgerOk(h);
  });
});
