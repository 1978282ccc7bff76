import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import {
  call,
  createHarness,
  emailGrant,
  expectLedgerOk,
  lastCode,
  usingPostgres,
  type Harness,
  type TestUser,
} from '../helpers/harness.js';
import { buyer, PIN, walletBalance } from '../helpers/factories.js';
import { deviceCookieOf, postFrom, signInOnDevice } from '../helpers/devices.js';
import { mtn, VTU_ENV } from '../vtu/helpers.js';
import { codeNow } from './rfc6238.js';

/**
 * Issue 43: with two-factor on, a sign-in on a device the account does not know (e-mail code or login PIN) opens a
 * pending session: it can neither read nor spend (403 SECOND_FACTOR_REQUIRED) until completeSignIn accepts the
 * authenticator's code or one unused recovery code. The device is known afterwards: its next sign-in is not asked.
 * Recovery codes: ten, shown once at enrolment, stored hashed, each works once, regenerating ends the old set, and
 * using one tells the owner.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: VTU_ENV });
});
afterAll(async () => h.close());

const OWN_IP = '192.0.2.10';
const NEW_IP = '198.51.100.77';

/** A Tier 1 buyer with money, a login PIN and a confirmed authenticator; its recovery codes and the secret. */
async function customerWith2fa(): Promise<{ u: TestUser; secret: string; codes: string[]; username: string }> {
  const u = await buyer(h, 5_000);
  const username = `sf_${u.id.slice(0, 8)}`;
  expect((await call(h, 'POST', '/_serverFn/updateProfileBearerSettings', { username }, { token: u.token })).statusCode).toBe(200);
  expect((await call(h, 'POST', '/_serverFn/setLoginPinBearerAuth', { pin: '605148' }, { token: u.token })).statusCode).toBe(200);
  const headers = await emailGrant(h, u);
  const begin = await call(h, 'POST', '/_serverFn/beginTotpEnrollmentBearer2FA', {}, { token: u.token, headers });
  const secret = begin.json().secret as string;
  const conf = await call(
    h,
    'POST',
    '/_serverFn/confirmTotpEnrollmentBearer2FA',
    { code: codeNow(h, secret) },
    { token: u.token, headers },
  );
  expect(conf.statusCode, conf.body).toBe(200);
  const codes = conf.json().recoveryCodes as string[];
  return { u, secret, codes, username };
}

/** Signs in by e-mail code from `ip` (with a device cookie or none); the token and the device cookie set, if any. */
async function signInFrom(email: string, ip: string, cookie?: string) {
  h.clock.advance(61_000); // past the code's resend wait
  const send = await postFrom(h, '/_serverFn/sendLoginOtpPublicAuth', { email }, { ip });
  expect(send.statusCode, send.body).toBe(200);
  const res = await postFrom(h, '/_serverFn/verifyLoginOtpPublicAuth', { email, code: await lastCode(h, email) }, { ip, cookie });
  expect(res.statusCode, res.body).toBe(200);
  return {
    token: res.json().session.accessToken as string,
    pending: res.json().session.secondFactorRequired === true,
    cookie: deviceCookieOf(res),
  };
}

const buy = (token: string) =>
  call(h, 'POST', '/api/v1/buyAirtime', { network: 'mtn', phone: mtn('4321'), amount: 500, pin: PIN }, { token });
const state = (token: string) => call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', {}, { token });
const complete = (token: string, code: string, from: { ip: string; cookie?: string } = { ip: NEW_IP }) =>
  postFrom(h, '/_serverFn/completeSignInBearerAuth', { code }, { ...from, token });

describe(`sign-in with two-factor on (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('recovery codes: ten at enrolment, distinct, stored only as hashes', async () => {
    const { u, codes } = await customerWith2fa();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    const stored = await rows<{ code_hash: string }>(h.app.services.db, sql`SELECT code_hash FROM recovery_codes WHERE user_id = ${u.id}`);
    expect(stored).toHaveLength(10);
    for (const s of stored) for (const c of codes) expect(s.code_hash).not.toContain(c.replace('-', ''));
    const st = await call(h, 'POST', '/_serverFn/getMyTwoFactorBearer2FA', {}, { token: u.token });
    expect(st.json().recoveryCodesLeft).toBe(10);
  });

  it('a new device signed in with an e-mail code can neither read nor spend before the authenticator code', async () => {
    const { u, secret } = await customerWith2fa();
    const before = await walletBalance(h, u.id);
    const s = await signInFrom(u.email, NEW_IP);
    expect(s.pending).toBe(true);
    expect(s.cookie).toBeFalsy(); // not a known device until the second step
    const read = await state(s.token);
    expect(read.statusCode).toBe(403);
    expect(read.json().error.code).toBe('SECOND_FACTOR_REQUIRED');
    expect(read.json().error.message).toMatch(/authenticator app or a recovery code/);
    const spend = await buy(s.token);
    expect(spend.statusCode).toBe(403);
    expect(spend.json().error.code).toBe('SECOND_FACTOR_REQUIRED');
    expect(await walletBalance(h, u.id)).toBe(before);

    // Bad input, a wrong code, then the right one.
    expect((await complete(s.token, '12ab')).statusCode).toBe(400);
    const wrongCode = codeNow(h, secret) === '000000' ? '111111' : '000000';
    const wrong = await complete(s.token, wrongCode);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('OTP_INVALID');
    h.clock.advance(30_000);
    const ok = await complete(s.token, codeNow(h, secret));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ signedIn: true, usedRecoveryCode: false, recoveryCodesLeft: 10 });
    const cookie = deviceCookieOf(ok);
    expect(cookie).toBeTruthy();
    expect((await state(s.token)).statusCode).toBe(200);
    expect((await buy(s.token)).statusCode).toBe(200);
    // Done once: a second completion is refused.
    expect((await complete(s.token, codeNow(h, secret))).json().error.code).toBe('CONFLICT');

    // The device is known now: its next sign-in is not asked again; a sign-in from another device is.
    h.clock.advance(61_000);
    const again = await signInFrom(u.email, NEW_IP, cookie!);
    expect(again.pending).toBe(false);
    expect((await state(again.token)).statusCode).toBe(200);
    h.clock.advance(61_000);
    const other = await signInFrom(u.email, '203.0.113.9');
    expect((await state(other.token)).json().error.code).toBe('SECOND_FACTOR_REQUIRED');
    await expectLedgerOk(h);
  });

  it('a new device signed in with the login PIN: a recovery code works once and the owner is told', async () => {
    const { u, codes, username } = await customerWith2fa();
    const pinLogin = async (ip: string) => {
      const r = await postFrom(h, '/_serverFn/startPinLoginPublicAuth', { identifier: `@${username}`, pin: '605148' }, { ip });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json().session.secondFactorRequired).toBe(true);
      return r.json().session.accessToken as string;
    };
    const t1 = await pinLogin(NEW_IP);
    expect((await buy(t1)).json().error.code).toBe('SECOND_FACTOR_REQUIRED');
    const used = await complete(t1, codes[3].toLowerCase().replace('-', ' '));
    expect(used.statusCode, used.body).toBe(200);
    expect(used.json()).toMatchObject({ signedIn: true, usedRecoveryCode: true, recoveryCodesLeft: 9 });
    expect((await state(t1)).statusCode).toBe(200);

    // The same code on another new device: refused.
    const t2 = await pinLogin('203.0.113.50');
    const again = await complete(t2, codes[3], { ip: '203.0.113.50' });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.message).toMatch(/recovery code is wrong or was already used/);
    expect((await state(t2)).statusCode).toBe(403);

    // The owner is told, by a security notice.
    const notices = await rows<{ data: { change?: string } }>(
      h.app.services.db,
      sql`SELECT data FROM notifications WHERE user_id = ${u.id} AND kind = 'login_alert'`,
    );
    expect(notices.some((n) => n.data.change === 'recovery_code_used')).toBe(true);

    // Regenerating ends the old set (a grant first).
    h.clock.advance(61_000);
    const headers = await emailGrant(h, { ...u, token: t1 });
    const regen = await call(h, 'POST', '/_serverFn/regenerateRecoveryCodesBearer2FA', {}, { token: t1, headers });
    expect(regen.statusCode, regen.body).toBe(200);
    const fresh = regen.json().recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(codes[5]);
    expect((await complete(t2, codes[5], { ip: '203.0.113.50' })).statusCode).toBe(400);
    const ok = await complete(t2, fresh[0], { ip: '203.0.113.50' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().recoveryCodesLeft).toBe(9);
  });

  it('signOut ends a pending sign-in; an account without two-factor is never asked', async () => {
    const { u } = await customerWith2fa();
    const s = await signInFrom(u.email, NEW_IP);
    expect((await call(h, 'POST', '/_serverFn/signOutBearerAuth', {}, { token: s.token })).statusCode).toBe(200);
    expect((await complete(s.token, '123456')).statusCode).toBe(401);
    const plain = await signInOnDevice(h, { ip: OWN_IP });
    expect((await state(plain.token)).statusCode).toBe(200);
  });

  it('operation walk: 401 without a token, 400 on bad input, CONFLICT when no sign-in is pending; regenerate needs two-factor on', async () => {
    expect((await call(h, 'POST', '/_serverFn/completeSignInBearerAuth', { code: '123456' })).statusCode).toBe(401);
    expect((await call(h, 'POST', '/_serverFn/regenerateRecoveryCodesBearer2FA', {})).statusCode).toBe(401);
    const plain = await signInOnDevice(h, { ip: OWN_IP });
    const bad = await call(h, 'POST', '/_serverFn/completeSignInBearerAuth', { code: 'not a code!' }, { token: plain.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message ?? JSON.stringify(bad.json().error)).toBeTruthy();
    const none = await call(h, 'POST', '/_serverFn/completeSignInBearerAuth', { code: '123456' }, { token: plain.token });
    expect(none.json().error.code).toBe('CONFLICT');
    const headers = await emailGrant(h, plain);
    const off = await call(h, 'POST', '/_serverFn/regenerateRecoveryCodesBearer2FA', {}, { token: plain.token, headers });
    expect(off.json().error.code).toBe('CONFLICT');
  });
});
