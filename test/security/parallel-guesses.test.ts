import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { call, createHarness, emailGrant, lastCode, signIn, type Harness } from '../helpers/harness.js';
import { codeNow, enrollTotp } from './rfc6238.js';
import { PIN_MAX_ATTEMPTS } from '../../src/modules/identity/pins.js';
import { OTP_MAX_ATTEMPTS, OTP_MAX_WRONG_PER_CODE } from '../../src/modules/identity/otp.js';
import { CODE_MAX_ATTEMPTS } from '../../src/modules/security/two-factor.js';

/**
 * Attempt limits hold under concurrency. Each test sends 100+ wrong guesses at once, every one
 * from its own address (so the per-route rate limit never answers for the limit under test), and counts the
 * guesses that were checked and answered "wrong": never more than the documented number.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

let n = 0;
const ip = () => {
  n++;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};
const post = (url: string, data: Record<string, unknown>, opts: { token?: string; remoteAddress?: string } = {}) =>
  h.app.inject({
    method: 'POST',
    url,
    payload: { data },
    remoteAddress: opts.remoteAddress ?? ip(),
    headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {},
  });
const codes = (rs: { json(): { error?: { code: string } } }[]) => rs.map((r) => r.json().error?.code ?? 'OK');
const count = (cs: string[], c: string) => cs.filter((x) => x === c).length;
const wrongPins = (k: number, digits: number, right: string) =>
  Array.from({ length: k + 1 }, (_, i) => String(i).padStart(digits, '0'))
    .filter((p) => p !== right)
    .slice(0, k);

describe('parallel guesses', () => {
  it('120 login-PIN guesses at once: at most 5 checked, then locked, and the right PIN is refused while locked', async () => {
    const u = await signIn(h);
    const name = `pg_${u.id.slice(0, 8)}`;
    await call(h, 'POST', '/_serverFn/updateProfileBearerSettings', { username: name }, { token: u.token });
    const set = await call(
      h,
      'POST',
      '/_serverFn/setLoginPinBearerAuth',
      { pin: '918273' },
      { token: u.token, headers: await emailGrant(h, u) },
    );
    expect(set.statusCode).toBe(200);
    const answers = codes(
      await Promise.all(
        wrongPins(120, 6, '918273').map((pin) => post('/_serverFn/startPinLoginPublicAuth', { identifier: `@${name}`, pin })),
      ),
    );
    expect(count(answers, 'INVALID_CREDENTIALS') + count(answers, 'PIN_LOCKED')).toBe(120);
    // The fifth wrong guess answers PIN_LOCKED as it sets the lock: at most four plain "wrong" answers.
    expect(count(answers, 'INVALID_CREDENTIALS')).toBeLessThanOrEqual(PIN_MAX_ATTEMPTS - 1);
    const right = await post('/_serverFn/startPinLoginPublicAuth', { identifier: `@${name}`, pin: '918273' });
    expect(right.json().error.code).toBe('PIN_LOCKED');
  });

  it('an unknown identifier locks the same way under 100 parallel guesses', async () => {
    const answers = codes(
      await Promise.all(
        wrongPins(100, 6, '').map((pin) => post('/_serverFn/startPinLoginPublicAuth', { identifier: '@nobody_parallel', pin })),
      ),
    );
    expect(count(answers, 'INVALID_CREDENTIALS')).toBeLessThanOrEqual(PIN_MAX_ATTEMPTS - 1);
    expect(count(answers, 'PIN_LOCKED')).toBeGreaterThanOrEqual(100 - (PIN_MAX_ATTEMPTS - 1));
  });

  it('140 transaction-PIN guesses at once on debitWalletFn: at most 5 checked', async () => {
    const u = await signIn(h);
    const set = await call(
      h,
      'POST',
      '/_serverFn/setTransactionPinFnBearerSettings',
      { pin: '4821' },
      { token: u.token, headers: await emailGrant(h, u) },
    );
    expect(set.statusCode).toBe(200);
    const answers = codes(
      await Promise.all(
        wrongPins(140, 4, '4821').map((pin) =>
          post('/_serverFn/debitWalletFnBearerWallet', { amount: 100, note: 'guess', pin }, { token: u.token }),
        ),
      ),
    );
    expect(count(answers, 'INVALID_PIN')).toBeLessThanOrEqual(PIN_MAX_ATTEMPTS - 1);
    expect(count(answers, 'INVALID_PIN') + count(answers, 'PIN_LOCKED')).toBe(140);
    const right = await post('/_serverFn/debitWalletFnBearerWallet', { amount: 100, note: 'right', pin: '4821' }, { token: u.token });
    expect(right.json().error.code).toBe('PIN_LOCKED');
  });

  it('100 step-up TOTP guesses at once: at most 5 checked', async () => {
    const u = await signIn(h);
    const secret = await enrollTotp(h, u);
    h.clock.advance(30_000);
    const good = codeNow(h, secret);
    const answers = codes(
      await Promise.all(
        wrongPins(102, 6, good)
          .filter((c) => c !== good)
          .slice(0, 100)
          .map((totpCode) => post('/_serverFn/verifyStepupChallengeBearer2FA', { totpCode }, { token: u.token })),
      ),
    );
    expect(count(answers, 'OTP_INVALID')).toBeLessThanOrEqual(CODE_MAX_ATTEMPTS - 1);
    expect(count(answers, 'RATE_LIMITED')).toBeGreaterThanOrEqual(100 - (CODE_MAX_ATTEMPTS - 1));
    expect(count(answers, 'OK')).toBe(0);
  });

  it('100 e-mail code guesses at once from one address: at most 5 checked; the owner elsewhere still signs in', async () => {
    const email = `pg-otp-${Date.now()}@example.com`;
    expect((await post('/_serverFn/sendLoginOtpPublicAuth', { email })).statusCode).toBe(200);
    const code = await lastCode(h, email);
    const attacker = '203.0.113.77';
    const guesses = wrongPins(101, 6, code).slice(0, 100);
    const answers = await Promise.all(
      guesses.map((c) => post('/_serverFn/verifyLoginOtpPublicAuth', { email, code: c }, { remoteAddress: attacker })),
    );
    expect(answers.every((r) => r.statusCode === 400 || r.statusCode === 429)).toBe(true);
    const row = (
      (await h.app.services.db.execute(
        sql`SELECT c.attempts, c.consumed_at, g.wrong FROM otp_codes c LEFT JOIN otp_guesses g ON g.code_id = c.id
            WHERE c.identifier = ${email} AND c.purpose = 'login'`,
      )) as unknown as { rows: { attempts: number; consumed_at: Date | null; wrong: number }[] }
    ).rows[0];
    expect(row.attempts).toBeLessThanOrEqual(OTP_MAX_ATTEMPTS);
    expect(row.wrong).toBeLessThanOrEqual(OTP_MAX_ATTEMPTS);
    expect(row.consumed_at).toBeNull();
    // The owner's code still works from the owner's own address.
    const owner = await post('/_serverFn/verifyLoginOtpPublicAuth', { email, code });
    expect(owner.statusCode).toBe(200);
  });

  it('100 guesses from 100 addresses: the code answers no unrecognised source after 10 wrong tries in all', async () => {
    const email = `pg-otp-many-${Date.now()}@example.com`;
    expect((await post('/_serverFn/sendLoginOtpPublicAuth', { email })).statusCode).toBe(200);
    const code = await lastCode(h, email);
    await Promise.all(
      wrongPins(101, 6, code)
        .slice(0, 100)
        .map((c) => post('/_serverFn/verifyLoginOtpPublicAuth', { email, code: c })),
    );
    const row = (
      (await h.app.services.db.execute(
        sql`SELECT attempts, consumed_at FROM otp_codes WHERE identifier = ${email} AND purpose = 'login'`,
      )) as unknown as {
        rows: { attempts: number; consumed_at: Date | null }[];
      }
    ).rows[0];
    expect(row.attempts).toBe(OTP_MAX_WRONG_PER_CODE);
    // Issue #28: the code stays open for the account's known devices (there are none here) and every unrecognised
    // source is refused: the account's shared budget is spent too (test/security/lockout-devices.test.ts).
    expect(row.consumed_at).toBeNull();
    expect((await post('/_serverFn/verifyLoginOtpPublicAuth', { email, code })).json().error.code).toBe('RATE_LIMITED');
  });
});
