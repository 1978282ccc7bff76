import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { call, lastCode, type Harness, type TestUser } from '../helpers/harness.js';
import { toKobo } from '../../src/kernel/money.js';

/** Signs a new account up through the real OTP flow with a referral code. */
export async function signUpWithCode(
  h: Harness,
  referralCode: string,
  email = `r${randomUUID().slice(0, 8)}@example.com`,
): Promise<TestUser> {
  // Past any resend cooldown of an earlier login with the same e-mail.
  h.clock.advance(61_000);
  await call(h, 'POST', '/_serverFn/sendLoginOtpPublicAuth', { email });
  const code = await lastCode(h, email);
  const res = await call(h, 'POST', '/_serverFn/verifyLoginOtpPublicAuth', { email, code, referralCode });
  if (res.statusCode !== 200) throw new Error(`verifyLoginOtp failed: ${res.body}`);
  const s = res.json().session;
  const claims = JSON.parse(Buffer.from(s.accessToken.split('.')[1], 'base64url').toString());
  return { id: s.user.id, email, token: s.accessToken, refreshToken: s.refreshToken, sessionId: claims.sid };
}

/** What the VTU engine does on delivery: emits 'vtu.succeeded' inside its transaction. */
export async function purchase(h: Harness, userId: string, naira: number, transactionId: string = randomUUID()) {
  const { db, work } = h.app.services;
  await db.transaction((tx) =>
    work
      .change(tx)
      .emit('vtu.succeeded', { userId, transactionId, amount: toKobo(naira), service: 'airtime' })
      .commit(),
  );
  await h.app.services.jobs.drain(); // the growth job the event wrote
  return transactionId;
}

/** A purchase delivered at once: wallet debit and 'vtu.succeeded' in one transaction (the emitter holds the wallet lock). */
export async function paidPurchase(h: Harness, userId: string, naira: number) {
  const { db, work, ledger } = h.app.services;
  const transactionId = randomUUID();
  await db.transaction(async (tx) => {
    await ledger.post(tx, {
      reference: `test_vtu_${transactionId}`,
      type: 'vtu_purchase',
      description: 'test purchase',
      entries: [
        { account: { user: userId, kind: 'wallet' }, amount: -toKobo(naira) },
        { account: { system: 'provider_float' }, amount: toKobo(naira) },
      ],
    });
    await work
      .change(tx)
      .emit('vtu.succeeded', { userId, transactionId, amount: toKobo(naira), service: 'data' })
      .commit();
  });
  await h.app.services.jobs.drain(); // the growth job the event wrote
}

/** A top-up as the payments module does it: ledger credit plus 'wallet.credited' in one transaction. */
export async function topUp(h: Harness, userId: string, naira: number) {
  const { db, work, ledger } = h.app.services;
  const reference = `test_topup_${randomUUID()}`;
  await db.transaction(async (tx) => {
    await ledger.post(tx, {
      reference,
      type: 'topup',
      description: 'test top-up',
      entries: [
        { account: { user: userId, kind: 'wallet' }, amount: toKobo(naira) },
        { account: { system: 'collections' }, amount: -toKobo(naira) },
      ],
    });
    await work
      .change(tx)
      .emit('wallet.credited', { userId, amount: toKobo(naira), source: 'topup', reference })
      .commit();
  });
  await h.app.services.jobs.drain(); // a loan's repayment job, when the credit wrote one
}

export async function balances(h: Harness, userId: string) {
  const b = await h.app.services.ledger.userBalances(h.app.services.db, userId);
  return Object.fromEntries(Object.entries(b).map(([k, v]) => [k, Number(v) / 100])) as Record<
    'wallet' | 'bonus_locked' | 'referral_locked' | 'savings' | 'loan',
    number
  >;
}

export async function systemBalance(h: Harness, account: string) {
  const { ledger, db } = h.app.services;
  return Number(await ledger.balance(db, { system: account as 'revenue' })) / 100;
}

export async function notificationsOf(h: Harness, userId: string, kind: string) {
  const r = (await h.app.services.db.execute(
    sql`SELECT title, body, data FROM notifications WHERE user_id = ${userId} AND kind = ${kind} ORDER BY created_at`,
  )) as unknown as {
    rows: { title: string; body: string; data: unknown }[];
  };
  return r.rows;
}

/** Test setup: changes rules through the service (the admin operation itself is tested in settings.test.ts). */
export async function setSettings(h: Harness, patch: Record<string, unknown>) {
  return h.app.services.growthSettings.update(randomUUID(), patch);
}
