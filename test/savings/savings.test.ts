import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, expectLedgerOk, fundWallet, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { DAY } from '../../src/kernel/clock.js';
import { balances, notificationsOf, setSettings, systemBalance } from '../growth/helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

async function saver(naira = 10_000): Promise<TestUser> {
  const u = await signIn(h);
  await fundWallet(h, u.id, naira);
  await h.app.services.pins.set(u.id, 'transaction', '1234');
  return u;
}
async function entriesOf(reference: string) {
  const r = (await h.app.services.db.execute(
    sql`SELECT a.code, e.amount::text AS amount FROM ledger_entries e JOIN accounts a ON a.id = e.account_id
        JOIN ledger_transactions t ON t.id = e.transaction_id WHERE t.reference = ${reference}`,
  )) as unknown as { rows: { code: string; amount: string }[] };
  return Object.fromEntries(r.rows.map((x) => [x.code, Number(x.amount)]));
}
const signInAgain = (u: TestUser) => {
  h.clock.advance(61_000); // past the OTP resend cooldown
  return signIn(h, u.email);
};
const create = (u: TestUser, input: Record<string, unknown>) =>
  call(h, 'POST', '/_serverFn/createSavingsLockBearerSavings', input, { token: u.token });
const breakLock = (u: TestUser, lockId: string) =>
  call(h, 'POST', '/_serverFn/breakSavingsLockBearerSavings', { lockId }, { token: u.token });

describe('createSavingsLock', () => {
  it('moves the amount from the wallet to savings and quotes the interest', async () => {
    const u = await saver();
    const res = await create(u, { amount: 3650, days: 365, pin: '1234' });
    expect(res.statusCode).toBe(200);
    const lock = res.json().lock;
    expect(lock).toMatchObject({
      amount: 3650,
      days: 365,
      interestRatePct: 10,
      interest: 365,
      breakFeePct: 1,
      status: 'active',
      payout: null,
    });
    expect(new Date(lock.maturesAt).getTime() - new Date(lock.createdAt).getTime()).toBe(365 * DAY);
    expect(await balances(h, u.id)).toMatchObject({ wallet: 6350, savings: 3650 });
    const list = await call(h, 'GET', '/_serverFn/listSavingsLocksBearerSavings', undefined, { token: u.token });
    expect(list.json()).toMatchObject({ totalLocked: 3650, hasMore: false, limit: 20, offset: 0 });
    expect(list.json().items).toHaveLength(1);
    await expectLedgerOk(h);
  });

  it('enforces the PIN, the 7-365 day bounds and the amount bounds at their edges', async () => {
    const u = await saver(6_000_000);
    const noPin = await signIn(h);
    await fundWallet(h, noPin.id, 5000);
    expect((await create(noPin, { amount: 1000, days: 7, pin: '1234' })).json().error.code).toBe('PIN_NOT_SET');
    expect((await create(u, { amount: 1000, days: 7, pin: '9999' })).json().error.code).toBe('INVALID_PIN');
    expect((await create(u, { amount: 1000, days: 7 })).statusCode).toBe(400);
    for (const days of [6, 366, 7.5, '7']) {
      const r = await create(u, { amount: 1000, days, pin: '1234' });
      expect(r.statusCode, String(days)).toBe(400);
      expect(r.json().error.code).toBe('VALIDATION_FAILED');
    }
    const tooSmall = await create(u, { amount: 999.99, days: 7, pin: '1234' });
    expect(tooSmall.json().error.code).toBe('AMOUNT_OUT_OF_RANGE');
    const tooBig = await create(u, { amount: 5_000_000.01, days: 7, pin: '1234' });
    expect(tooBig.json().error.code).toBe('AMOUNT_OUT_OF_RANGE');
    expect((await create(u, { amount: 1000, days: 7, pin: '1234' })).statusCode).toBe(200);
    expect((await create(u, { amount: 5_000_000, days: 365, pin: '1234' })).statusCode).toBe(200);
    const broke = await saver(500);
    const r = await create(broke, { amount: 1000, days: 30, pin: '1234' });
    expect(r.statusCode).toBe(400);
    expect(r.json().error.code).toBe('INSUFFICIENT_FUNDS');
    expect(await balances(h, broke.id)).toMatchObject({ wallet: 500, savings: 0 });
    await expectLedgerOk(h);
  });
});

describe('parallel locks', () => {
  it('never locks more than the wallet holds: 10 parallel locks of 1,000 from 5,000', async () => {
    const u = await saver(5000);
    const results = await Promise.all(Array.from({ length: 10 }, () => create(u, { amount: 1000, days: 30, pin: '1234' })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(5);
    expect(results.filter((r) => r.statusCode === 400).every((r) => r.json().error.code === 'INSUFFICIENT_FUNDS')).toBe(true);
    expect(await balances(h, u.id)).toMatchObject({ wallet: 0, savings: 5000 });
    await expectLedgerOk(h);
  });
});

describe('maturity', () => {
  it('matures by the job exactly at maturesAt (not 1 ms before) with principal plus interest from interest_expense', async () => {
    const u = await saver(10_000);
    const lock = (await create(u, { amount: 7300, days: 30, pin: '1234' })).json().lock;
    // 7300 * 10% * 30 / 365 = 60
    expect(lock.interest).toBe(60);
    h.clock.set(new Date(new Date(lock.maturesAt).getTime() - 1));
    await h.app.services.jobs.drain();
    expect(await balances(h, u.id)).toMatchObject({ wallet: 2700, savings: 7300 });
    h.clock.advance(1);
    await h.app.services.jobs.drain();
    expect(await balances(h, u.id)).toMatchObject({ wallet: 10_060, savings: 0 });
    expect(await entriesOf(`sav_mature_${lock.id}`)).toEqual({
      [`user:${u.id}:savings`]: -730000,
      [`user:${u.id}:wallet`]: 736000,
      'system:interest_expense': -6000,
    });
    const list = await h.app.services.savings.list(u.id, { limit: 20, offset: 0 });
    expect(list.items[0]).toMatchObject({ status: 'matured', payout: 7360, fee: 0 });
    const notes = await notificationsOf(h, u.id, 'savings_matured');
    expect(notes).toHaveLength(1);
    // Exactly once: another run of the job or the sweep pays nothing more.
    expect(await h.app.services.savings.mature(lock.id)).toBe(false);
    expect(await h.app.services.savings.matureDue()).toBe(0);
    expect((await balances(h, u.id)).wallet).toBe(10_060);
    await expectLedgerOk(h);
  });

  it('keeps the rate a lock was opened with when the operator changes it', async () => {
    const u = await saver(10_000);
    const lock = (await create(u, { amount: 3650, days: 7, pin: '1234' })).json().lock;
    await setSettings(h, { savingsAnnualRatePct: 20 });
    try {
      h.clock.set(lock.maturesAt);
      await h.app.services.jobs.drain();
      // 3650 * 10% * 7 / 365 = 7
      expect((await balances(h, u.id)).wallet).toBe(10_007);
    } finally {
      await setSettings(h, { savingsAnnualRatePct: 10 });
    }
  });
});

describe('breakSavingsLock', () => {
  it('returns the principal minus the 1% fee, forfeits interest, and refuses a second break', async () => {
    const u = await saver(10_000);
    const lock = (await create(u, { amount: 5000, days: 90, pin: '1234' })).json().lock;
    const revenueBefore = await systemBalance(h, 'revenue');
    h.clock.advance(10 * DAY);
    const res = await breakLock(await signIn(h, u.email), lock.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().lock).toMatchObject({ status: 'broken', payout: 4950, fee: 50 });
    expect(await balances(h, u.id)).toMatchObject({ wallet: 9950, savings: 0 });
    expect(await systemBalance(h, 'revenue')).toBe(revenueBefore + 50);
    const again = await breakLock(await signInAgain(u), lock.id);
    expect(again.statusCode).toBe(409);
    // The maturity job for a broken lock does nothing.
    h.clock.set(lock.maturesAt);
    await h.app.services.jobs.drain();
    expect((await balances(h, u.id)).wallet).toBe(9950);
    await expectLedgerOk(h);
  });

  it('pays the full maturity when broken at or after maturesAt before the job ran', async () => {
    const u = await saver(10_000);
    const lock = (await create(u, { amount: 3650, days: 10, pin: '1234' })).json().lock;
    h.clock.set(lock.maturesAt);
    const res = await call(
      h,
      'POST',
      '/_serverFn/breakSavingsLockBearerSavings',
      { lockId: lock.id },
      { token: (await signIn(h, u.email)).token },
    );
    expect(res.json().lock).toMatchObject({ status: 'matured', payout: 3660 });
    expect((await balances(h, u.id)).wallet).toBe(10_010);
  });

  it('answers 404 for another user lock and an unknown id, 400 for a malformed id', async () => {
    const owner = await saver(5000);
    const lock = (await create(owner, { amount: 1000, days: 7, pin: '1234' })).json().lock;
    const other = await saver(5000);
    expect((await breakLock(other, lock.id)).statusCode).toBe(404);
    expect((await breakLock(other, randomUUID())).statusCode).toBe(404);
    expect((await breakLock(other, 'not-a-uuid')).statusCode).toBe(400);
    expect((await call(h, 'GET', '/_serverFn/listSavingsLocksBearerSavings', undefined, { token: other.token })).json().items).toHaveLength(
      0,
    );
    expect((await balances(h, owner.id)).savings).toBe(1000);
  });

  it('pays out once for 15 parallel breaks', async () => {
    const u = await saver(10_000);
    const lock = (await create(u, { amount: 2000, days: 60, pin: '1234' })).json().lock;
    const results = await Promise.all(Array.from({ length: 15 }, () => breakLock(u, lock.id)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(14);
    expect(await balances(h, u.id)).toMatchObject({ wallet: 9980, savings: 0 });
    await expectLedgerOk(h);
  });
});
