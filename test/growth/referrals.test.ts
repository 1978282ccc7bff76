import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, expectLedgerOk, fundWallet, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { DAY } from '../../src/kernel/clock.js';
import { balances, paidPurchase, purchase, setSettings, signUpWithCode } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const status = async (u: TestUser) => {
  const r = await call(h, 'GET', '/_serverFn/getMyReferralStatusBearerGrowth', undefined, { token: u.token });
  expect(r.statusCode).toBe(200);
  return r.json();
};
const referrerOf = async (inviteeId: string) => {
  const r = (await h.app.services.db.execute(
    sql`SELECT referrer_id::text AS referrer_id, status FROM referrals WHERE invitee_id = ${inviteeId}`,
  )) as unknown as {
    rows: { referrer_id: string; status: string }[];
  };
  return r.rows[0];
};

describe('referral codes and sign-up', () => {
  it('gives each user one stable code of 4-16 [A-Z0-9]', async () => {
    const a = await signIn(h);
    const first = await status(a);
    expect(first.code).toMatch(/^[A-Z0-9]{4,16}$/);
    expect((await status(a)).code).toBe(first.code);
    const b = await signIn(h);
    expect((await status(b)).code).not.toBe(first.code);
  });

  it('records the referrer at sign-up, case-insensitively; an unknown code is ignored and sign-up still works', async () => {
    const a = await signIn(h);
    const { code } = await status(a);
    const b = await signUpWithCode(h, code.toLowerCase());
    expect(await referrerOf(b.id)).toMatchObject({ referrer_id: a.id, status: 'pending' });
    const c = await signUpWithCode(h, 'NOSUCHCODE99');
    expect(await referrerOf(c.id)).toBeUndefined();
    const s = await status(a);
    expect(s.invitees).toBe(1);
    expect(s.recentInvitees[0]).toMatchObject({ status: 'pending' });
    expect(s.recentInvitees[0].name).toContain('***@');
  });

  it('keeps one referrer per account: a later login with another code changes nothing', async () => {
    const a = await signIn(h);
    const other = await signIn(h);
    const b = await signUpWithCode(h, (await status(a)).code);
    await signUpWithCode(h, (await status(other)).code, b.email); // existing account: a login, not a sign-up
    expect((await referrerOf(b.id)).referrer_id).toBe(a.id);
    expect((await status(other)).invitees).toBe(0);
  });

  it('refuses a malformed code at sign-up with 400', async () => {
    const email = `x${randomUUID().slice(0, 8)}@example.com`;
    const res = await call(h, 'POST', '/_serverFn/verifyLoginOtpPublicAuth', { email, code: '123456', referralCode: 'AB' });
    expect(res.statusCode).toBe(400);
  });

  it('refuses self-referral at the database level', async () => {
    const a = await signIn(h);
    await expect(
      h.app.services.db.execute(
        sql`INSERT INTO referrals (invitee_id, referrer_id, code, created_at) VALUES (${a.id}, ${a.id}, 'SELF', now())`,
      ),
    ).rejects.toThrow();
  });
});

describe('referral bonus', () => {
  it('credits the locked bonus once on the invitee first qualifying purchase, at the minimum edge', async () => {
    const a = await signIn(h);
    const b = await signUpWithCode(h, (await status(a)).code);
    await purchase(h, b.id, 99.99); // below referralMinPurchase (100)
    expect((await balances(h, a.id)).referral_locked).toBe(0);
    const tx = await purchase(h, b.id, 100);
    expect((await balances(h, a.id)).referral_locked).toBe(500);
    await purchase(h, b.id, 100, tx); // same event delivered twice
    await purchase(h, b.id, 5000); // later purchases earn nothing more
    expect((await balances(h, a.id)).referral_locked).toBe(500);
    const wallet = await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: a.token });
    expect(wallet.json()).toMatchObject({ balance: 0, referralLockedBonus: 500 });
    expect(await status(a)).toMatchObject({ lockedBonus: 500, earnedBonus: 500, rewardedInvitees: 1, qualifiedInvitees: 1 });
    await expectLedgerOk(h);
  });

  it('unlocks to the wallet when the referrer own purchases reach the threshold (edge: 1 kobo short stays locked)', async () => {
    const a = await signIn(h);
    const b = await signUpWithCode(h, (await status(a)).code);
    await purchase(h, a.id, 1999.99);
    await purchase(h, b.id, 200);
    expect(await balances(h, a.id)).toMatchObject({ referral_locked: 500, wallet: 0 });
    expect((await status(a)).unlock).toMatchObject({ required: 2000, spent: 1999.99, met: false });
    await purchase(h, a.id, 0.01);
    expect(await balances(h, a.id)).toMatchObject({ referral_locked: 0, wallet: 500 });
    // Once the threshold is met, later bonuses unlock at once.
    const c = await signUpWithCode(h, (await status(a)).code);
    await purchase(h, c.id, 100);
    expect(await balances(h, a.id)).toMatchObject({ referral_locked: 0, wallet: 1000 });
    await expectLedgerOk(h);
  });

  it('pays at most referralDailyCap invitees per Lagos day; the next day pays again', async () => {
    await setSettings(h, { referralDailyCap: 2 });
    try {
      const a = await signIn(h);
      const { code } = await status(a);
      const inv = [];
      for (let i = 0; i < 4; i++) inv.push(await signUpWithCode(h, code));
      await Promise.all(inv.slice(0, 3).map((u) => purchase(h, u.id, 100)));
      expect((await balances(h, a.id)).referral_locked).toBe(1000);
      expect(await status(a)).toMatchObject({ rewardedInvitees: 2, qualifiedInvitees: 3 });
      h.clock.advance(DAY);
      await purchase(h, inv[3].id, 100);
      expect((await balances(h, a.id)).referral_locked).toBe(1500);
      await expectLedgerOk(h);
    } finally {
      await setSettings(h, { referralDailyCap: 10 });
    }
  });
});

describe('referrals under parallel purchases', () => {
  it('pays every invitee once and unlocks exactly what was earned while the referrer buys at the same time', async () => {
    const a = await signIn(h);
    await fundWallet(h, a.id, 3000);
    const { code } = await status(a);
    const invitees = [];
    for (let i = 0; i < 8; i++) invitees.push(await signUpWithCode(h, code));
    await Promise.all([
      ...invitees.map((u) => purchase(h, u.id, 100)),
      ...invitees.map((u) => purchase(h, u.id, 100)),
      paidPurchase(h, a.id, 1000),
      paidPurchase(h, a.id, 1000),
      paidPurchase(h, a.id, 1000),
    ]);
    // 8 invitees × 500 plus the 5-invitee milestone (1,000); 3,000 spent >= 2,000, so all of it is in the wallet.
    expect(await balances(h, a.id)).toMatchObject({ wallet: 5000, referral_locked: 0 });
    expect(await status(a)).toMatchObject({ rewardedInvitees: 8, earnedBonus: 5000 });
    expect(h.logs.some((l) => l.includes('growth subscriber failed'))).toBe(false);
    await expectLedgerOk(h);
  });
});

describe('milestones', () => {
  it('awards each threshold once, lists it until acknowledged', async () => {
    await setSettings(h, {
      milestones: [
        { threshold: 2, bonus: 300 },
        { threshold: 3, bonus: 700 },
      ],
    });
    try {
      const a = await signIn(h);
      const { code } = await status(a);
      const pending = async () =>
        (await call(h, 'GET', '/_serverFn/getPendingMilestonesBearerGrowth', undefined, { token: a.token })).json();
      const b = await signUpWithCode(h, code);
      await purchase(h, b.id, 100);
      expect(await pending()).toMatchObject({ items: [], rewardedInvitees: 1, next: { threshold: 2, remaining: 1 } });
      const c = await signUpWithCode(h, code);
      await purchase(h, c.id, 100);
      const p = await pending();
      expect(p.items).toHaveLength(1);
      expect(p.items[0]).toMatchObject({ threshold: 2, bonus: 300 });
      expect((await balances(h, a.id)).referral_locked).toBe(500 + 500 + 300);

      const notReached = await call(h, 'POST', '/_serverFn/ackMilestoneBearerGrowth', { threshold: 3 }, { token: a.token });
      expect(notReached.statusCode).toBe(404);
      const ack = await call(h, 'POST', '/_serverFn/ackMilestoneBearerGrowth', { threshold: 2 }, { token: a.token });
      expect(ack.statusCode).toBe(200);
      expect(ack.json().acknowledgedAt).toBeTruthy();
      const again = await call(h, 'POST', '/_serverFn/ackMilestoneBearerGrowth', { threshold: 2 }, { token: a.token });
      expect(again.json().acknowledgedAt).toBe(ack.json().acknowledgedAt);
      expect((await pending()).items).toHaveLength(0);
      // Another user cannot see or acknowledge it.
      const other = await signIn(h);
      expect((await call(h, 'POST', '/_serverFn/ackMilestoneBearerGrowth', { threshold: 2 }, { token: other.token })).statusCode).toBe(404);
      await expectLedgerOk(h);
    } finally {
      await setSettings(h, {
        milestones: [
          { threshold: 5, bonus: 1000 },
          { threshold: 10, bonus: 2500 },
          { threshold: 25, bonus: 7500 },
        ],
      });
    }
  });

  it('validates ackMilestone input', async () => {
    const a = await signIn(h);
    for (const bad of [{}, { threshold: 'x' }, { threshold: 0 }, { threshold: 1.5 }, { threshold: 2, extra: 1 }]) {
      const r = await call(h, 'POST', '/_serverFn/ackMilestoneBearerGrowth', bad, { token: a.token });
      expect(r.statusCode).toBe(400);
    }
  });
});

describe('event isolation', () => {
  it('failing growth work is logged and retried by its job, and never rolls back the change that emitted the event', async () => {
    const u = await signIn(h);
    const { db, work, ledger, jobs } = h.app.services;
    await db.transaction(async (tx) => {
      // A malformed user id makes the growth job's insert fail; the event's part only wrote the job.
      await work
        .change(tx)
        .emit('vtu.succeeded', { userId: 'not-a-uuid', transactionId: randomUUID(), amount: 10_000n, service: 'data' })
        .commit();
      await ledger.post(tx, {
        reference: `iso_${randomUUID()}`,
        type: 'adjustment',
        description: 'emitter keeps working',
        entries: [
          { account: { user: u.id, kind: 'wallet' }, amount: 700n },
          { account: { system: 'adjustments' }, amount: -700n },
        ],
      });
    });
    expect((await balances(h, u.id)).wallet).toBe(7);
    await jobs.drain();
    expect(h.logs.some((l) => l.includes('growth work failed'))).toBe(true);
    expect((await balances(h, u.id)).wallet).toBe(7);
    await expectLedgerOk(h);
  });
});
