import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, emailGrant, expectLedgerOk, signIn, type Harness } from '../helpers/harness.js';
import { DAY } from '../../src/kernel/clock.js';
import { balances, setSettings } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const claim = (token: string) => call(h, 'POST', '/_serverFn/claimCheckinBearerGrowth', undefined, { token });
const statusOf = async (token: string) => (await call(h, 'GET', '/_serverFn/getCheckinStatusBearerGrowth', undefined, { token })).json();

describe('check-ins', () => {
  it('allows one claim per Lagos calendar day: 23:59:59.999 and 00:00:00.000 Lagos are two days', async () => {
    h.clock.set('2026-02-01T22:59:00.000Z'); // 23:59 in Lagos (UTC+1)
    const u = await signIn(h);
    expect(await statusOf(u.token)).toMatchObject({ today: '2026-02-01', streak: 0, todayClaimed: false, accrued: 0, nextReward: 10 });
    h.clock.set('2026-02-01T22:59:59.999Z');
    const first = await claim(u.token);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ day: '2026-02-01', streak: 1, reward: 10, accrued: 10 });
    const again = await claim(u.token);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('CONFLICT');
    expect(await statusOf(u.token)).toMatchObject({ streak: 1, todayClaimed: true, nextReward: 15 });

    h.clock.advance(1); // midnight in Lagos
    expect(await statusOf(u.token)).toMatchObject({ today: '2026-02-02', streak: 1, todayClaimed: false });
    const second = await claim(u.token);
    expect(second.json()).toMatchObject({ day: '2026-02-02', streak: 2, reward: 15, accrued: 25 });
    const wallet = await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: u.token });
    expect(wallet.json()).toMatchObject({ balance: 0, lockedBonus: 25 });
    await expectLedgerOk(h);
  });

  it('grows the reward with the streak up to the cap, and a missed day restarts it', async () => {
    h.clock.set('2026-03-01T08:00:00Z');
    const u = await signIn(h);
    const rewards: number[] = [];
    for (let d = 0; d < 8; d++) {
      rewards.push((await h.app.services.growth.claimCheckin(u.id)).reward);
      h.clock.advance(DAY);
    }
    expect(rewards).toEqual([10, 15, 20, 25, 30, 35, 40, 40]);
    h.clock.advance(DAY); // a day without a claim
    expect((await h.app.services.growth.checkinStatus(u.id)).streak).toBe(0);
    const after = await h.app.services.growth.claimCheckin(u.id);
    expect(after).toMatchObject({ streak: 1, reward: 10, accrued: 225 });
    expect((await balances(h, u.id)).bonus_locked).toBe(225);
  });

  it('withdraws the whole accrued bonus to the wallet only from the minimum (edge: 1 kobo short is refused)', async () => {
    h.clock.set('2026-04-01T08:00:00Z');
    const u = await signIn(h);
    for (let d = 0; d < 3; d++) {
      await h.app.services.growth.claimCheckin(u.id);
      h.clock.advance(DAY);
    }
    // 10 + 15 + 20 = 45 accrued; default minimum 500.
    await setSettings(h, { checkinMinWithdrawal: 45.01 });
    try {
      const token = (await signInAgain(u.email)).token;
      const refused = await call(h, 'POST', '/_serverFn/withdrawCheckinBearerGrowth', undefined, { token });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.code).toBe('AMOUNT_OUT_OF_RANGE');
      expect(await statusOf(token)).toMatchObject({ accrued: 45, canWithdraw: false, minWithdrawal: 45.01 });
      await setSettings(h, { checkinMinWithdrawal: 45 });
      const ok = await call(h, 'POST', '/_serverFn/withdrawCheckinBearerGrowth', undefined, { token });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ amount: 45, balance: 45 });
      expect(await balances(h, u.id)).toMatchObject({ wallet: 45, bonus_locked: 0 });
      const empty = await call(h, 'POST', '/_serverFn/withdrawCheckinBearerGrowth', undefined, { token });
      expect(empty.statusCode).toBe(400);
      await expectLedgerOk(h);
    } finally {
      await setSettings(h, { checkinMinWithdrawal: 500 });
    }
  });

  it('pays one check-in for 15 parallel claims, and one withdrawal for 10 parallel withdrawals', async () => {
    h.clock.set('2026-05-01T08:00:00Z');
    const u = await signIn(h);
    const results = await Promise.all(Array.from({ length: 15 }, () => claim(u.token)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(14);
    expect((await balances(h, u.id)).bonus_locked).toBe(10);
    await expectLedgerOk(h);

    await setSettings(h, { checkinMinWithdrawal: 1 });
    try {
      const w = await Promise.all(
        Array.from({ length: 10 }, () => call(h, 'POST', '/_serverFn/withdrawCheckinBearerGrowth', undefined, { token: u.token })),
      );
      expect(w.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(w.filter((r) => r.statusCode === 400)).toHaveLength(9);
      expect(await balances(h, u.id)).toMatchObject({ wallet: 10, bonus_locked: 0 });
      await expectLedgerOk(h);
    } finally {
      await setSettings(h, { checkinMinWithdrawal: 500 });
    }
  });
});

describe('account closure', () => {
  it('forfeits locked bonuses back to bonus_expense when the account closes', async () => {
    h.clock.set('2026-06-01T08:00:00Z');
    const u = await signIn(h);
    expect((await claim(u.token)).statusCode).toBe(200);
    const closed = await call(
      h,
      'POST',
      '/_serverFn/closeAccountBearerSettings',
      { confirm: 'DELETE' },
      { token: u.token, headers: await emailGrant(h, u) },
    );
    expect(closed.statusCode).toBe(200);
    await h.app.services.jobs.drain(); // the forfeiture job the closure wrote
    expect((await balances(h, u.id)).bonus_locked).toBe(0);
    await expectLedgerOk(h);
  });
});

async function signInAgain(email: string) {
  h.clock.advance(61_000); // past the OTP resend cooldown
  return signIn(h, email);
}
