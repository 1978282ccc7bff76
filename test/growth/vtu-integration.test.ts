import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, createHarness, expectLedgerOk, fundWallet, signIn, usingPostgres, type Harness } from '../helpers/harness.js';
import { setKycTier } from '../helpers/factories.js';
import { mtn, PIN, reconcile, VTU_ENV } from '../vtu/helpers.js';
import { balances, signUpWithCode } from './helpers.js';
import { roundTripsOf } from '../helpers/statements.js';
import { count } from '../payments/helpers.js';

// The real purchase path: a delivered airtime purchase (sandbox provider C) emits 'vtu.succeeded', whose growth job
// (written by the settling statement) pays the referrer the locked bonus; a refunded one earns nothing.
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: VTU_ENV });
});
afterAll(async () => h?.close());

it('a delivered purchase by the invitee pays the referrer; a failed one does not', async () => {
  const a = await signIn(h);
  const { code } = (await call(h, 'GET', '/_serverFn/getMyReferralStatusBearerGrowth', undefined, { token: a.token })).json();
  const b = await signUpWithCode(h, code);
  await h.app.services.pins.set(b.id, 'transaction', PIN);
  await setKycTier(h, b.id, 1);
  await fundWallet(h, b.id, 5000);

  const failed = await call(
    h,
    'POST',
    '/api/v1/buyAirtime',
    { network: 'mtn', phone: mtn('1111'), amount: 500, pin: PIN },
    { token: b.token },
  );
  expect(failed.statusCode).toBe(200);
  await reconcile(h);
  expect((await balances(h, a.id)).referral_locked).toBe(0);

  const ok = await call(h, 'POST', '/api/v1/buyAirtime', { network: 'mtn', phone: mtn('1234'), amount: 500, pin: PIN }, { token: b.token });
  expect(ok.statusCode).toBe(200);
  await reconcile(h);
  expect((await balances(h, a.id)).referral_locked).toBe(500);
  const status = (
    await call(h, 'GET', '/_serverFn/getMyReferralStatusBearerGrowth', undefined, { token: (await signIn(h, a.email)).token })
  ).json();
  expect(status).toMatchObject({ rewardedInvitees: 1, lockedBonus: 500 });
  await expectLedgerOk(h);
});

it('the referrer own delivered purchases unlock the locked bonus at the threshold, and leave no growth job undone', async () => {
  const a = await signIn(h);
  const { code } = (await call(h, 'GET', '/_serverFn/getMyReferralStatusBearerGrowth', undefined, { token: a.token })).json();
  const b = await signUpWithCode(h, code);
  for (const u of [a, b]) {
    await h.app.services.pins.set(u.id, 'transaction', PIN);
    await setKycTier(h, u.id, 1);
    await fundWallet(h, u.id, 5000);
  }
  const buy = async (token: string, amount: number) => {
    expect(
      (await call(h, 'POST', '/api/v1/buyAirtime', { network: 'mtn', phone: mtn('1234'), amount, pin: PIN }, { token })).json().transaction
        .status,
    ).toBe('success');
    await h.app.services.jobs.drain();
  };
  await buy(b.token, 500);
  expect((await balances(h, a.id)).referral_locked).toBe(500);
  // 1 kobo short of the unlock spend (2,000) keeps it locked; the purchase that reaches it unlocks it.
  await buy(a.token, 1500);
  await buy(a.token, 499.99);
  expect(await balances(h, a.id)).toMatchObject({ referral_locked: 500, wallet: 3000.01 });
  await buy(a.token, 100);
  expect(await balances(h, a.id)).toMatchObject({ referral_locked: 0, wallet: 3400.01 });
  // Each purchase wrote its growth job; every one of them ran.
  expect(await count(h, sql`SELECT count(*)::int AS n FROM jobs WHERE queue = 'growth.eventRetry' AND status <> 'done'`)).toBe(0);
  await expectLedgerOk(h);
});

it.skipIf(!usingPostgres)(
  'settles a delivered purchase in one round trip with its growth job, each its own statement; no savepoint',
  async () => {
    const u = await signIn(h);
    await h.app.services.pins.set(u.id, 'transaction', PIN);
    await setKycTier(h, u.id, 1);
    await fundWallet(h, u.id, 5000);
    const trips = await roundTripsOf(async () => {
      const r = await call(
        h,
        'POST',
        '/api/v1/buyAirtime',
        { network: 'mtn', phone: mtn('1234'), amount: 500, pin: PIN },
        { token: u.token },
      );
      expect(r.json().transaction.status).toBe('success');
    });
    const settle = trips.filter((t) => t.some((s) => s.includes('UPDATE vtu_transactions SET status')));
    expect(settle).toHaveLength(1);
    const [trip] = settle;
    // BEGIN, the settlement, the growth job (its own statement), ..., COMMIT: one round trip.
    expect(trip[0]).toBe('BEGIN');
    expect(trip[trip.length - 1]).toBe('COMMIT');
    expect(trip.some((s) => s.includes('INSERT INTO jobs') && !s.includes('vtu_transactions'))).toBe(true);
    expect(trip.filter((s) => s.includes('INSERT INTO jobs') && s.includes('vtu_transactions'))).toEqual([]);
    expect(trips.flat().filter((t) => /^\s*savepoint/i.test(t))).toEqual([]);
    expect((await balances(h, u.id)).wallet).toBe(4500);
  },
);

it('invitees and their referrer buying at the same time: each bonus paid once, all of it unlocked once the spend is reached', async () => {
  const a = await signIn(h);
  const { code } = (await call(h, 'GET', '/_serverFn/getMyReferralStatusBearerGrowth', undefined, { token: a.token })).json();
  const invitees = [];
  for (let i = 0; i < 3; i++) invitees.push(await signUpWithCode(h, code));
  for (const u of [a, ...invitees]) {
    await h.app.services.pins.set(u.id, 'transaction', PIN);
    await setKycTier(h, u.id, 1);
    await fundWallet(h, u.id, 5000);
  }
  const buy = (token: string, amount: number) =>
    call(h, 'POST', '/api/v1/buyAirtime', { network: 'mtn', phone: mtn('1234'), amount, pin: PIN }, { token });
  const answers = await Promise.all([...invitees.map((u) => buy(u.token, 200)), buy(a.token, 700), buy(a.token, 700), buy(a.token, 700)]);
  expect(answers.map((r) => r.json().transaction?.status)).toEqual(Array(6).fill('success'));
  await h.app.services.jobs.drain();
  // Whichever order the settlements and bonuses took, the last of them found the spend reached and unlocked all.
  expect(await balances(h, a.id)).toMatchObject({ referral_locked: 0, wallet: 5000 - 2100 + 1500 });
  const bonuses = `{${invitees.map((u) => `rfb_${u.id}`).join(',')}}`;
  expect(
    await count(
      h,
      sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE type = 'referral_bonus' AND reference = ANY(${bonuses}::text[])`,
    ),
  ).toBe(3);
  await expectLedgerOk(h);
});
