import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { sha256 } from '../../src/lib/crypto.js';
import { OTP_MAX_ATTEMPTS, OTP_MAX_WRONG_PER_CODE } from '../../src/modules/identity/otp.js';
import { DEVICE_COOKIE_PATHS } from '../../src/http/session-cookie.js';
import { call, createHarness, emailGrant, type Harness, type TestUser } from '../helpers/harness.js';
import { PIN_LOGIN, SEND, VERIFY, deviceCookieOf, postFrom, signInCode, signInOnDevice } from '../helpers/devices.js';
import { codeNow, enrollTotp } from './rfc6238.js';

/**
 * Issue #28, lock-out by a few addresses: a device that signed in to the account before (its device cookie) keeps
 * its own attempt budget for the login code, the login PIN and authenticator step-up. Guesses from anywhere else
 * share one budget per account, and once they have spent it they are all refused, while the owner's device still
 * signs in with the newest code and with its PIN. Every address below is a different client; the attackers never
 * hold the device cookie (it is HttpOnly).
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const STEP_UP = '/_serverFn/verifyStepupChallengeBearer2FA';
const PIN = '371946';
const wrong = (code: string, i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
const addresses = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}.${i + 1}`);
const errorOf = (r: { json(): { error?: { code: string } } }) => r.json().error?.code ?? 'OK';

/** An owner signed in on a device, with a username and a login PIN. */
async function ownerWithPin(ip: string): Promise<TestUser & { cookie: string; name: string }> {
  const owner = await signInOnDevice(h, { ip });
  const name = `ld_${owner.id.slice(0, 8)}`;
  expect((await call(h, 'POST', '/_serverFn/updateProfileBearerSettings', { username: name }, { token: owner.token })).statusCode).toBe(
    200,
  );
  const set = await call(
    h,
    'POST',
    '/_serverFn/setLoginPinBearerAuth',
    { pin: PIN },
    { token: owner.token, headers: await emailGrant(h, owner) },
  );
  expect(set.statusCode).toBe(200);
  return { ...owner, name };
}

/** Asks for a login code for the owner from `ip` once the send cooldown allows; returns the code (the owner's mailbox). */
async function codeAskedFrom(email: string, ip: string): Promise<string> {
  const wait = (await call(h, 'POST', '/_serverFn/getOtpCooldownPublicAuth', { email })).json().secondsRemaining as number;
  h.clock.advance(wait * 1000);
  expect((await postFrom(h, SEND, { email }, { ip })).statusCode).toBe(200);
  return signInCode(h, email);
}

describe('lock-out resistance with known devices (issue #28)', () => {
  it('two addresses spend every unrecognised budget; the owner device still signs in with its newest code and its PIN', async () => {
    const owner = await ownerWithPin('192.0.2.10');
    const [a, b] = ['198.51.100.1', '198.51.100.2'];

    // Login code: five wrong guesses from each address (each address's own limit per code).
    const code = await codeAskedFrom(owner.email, a);
    for (const ip of [a, b]) {
      for (let i = 0; i < OTP_MAX_ATTEMPTS; i++) {
        expect(errorOf(await postFrom(h, VERIFY, { email: owner.email, code: wrong(code, i) }, { ip }))).toBe('OTP_INVALID');
      }
    }
    // Every unrecognised source is refused now, the right code notwithstanding ...
    const stranger = await postFrom(h, VERIFY, { email: owner.email, code }, { ip: '203.0.113.9' });
    expect(stranger.statusCode).toBe(429);
    expect(errorOf(stranger)).toBe('RATE_LIMITED');
    expect(Number(stranger.headers['retry-after'])).toBeGreaterThan(0);
    // ... and the owner's device signs in with the newest code, from any address.
    const byCode = await postFrom(h, VERIFY, { email: owner.email, code }, { ip: '203.0.113.9', cookie: owner.cookie });
    expect(byCode.statusCode).toBe(200);
    expect(byCode.json().session.user.id).toBe(owner.id);

    // Login PIN: three wrong guesses from one address and two from the other lock PIN login for everyone else ...
    for (const [ip, n] of [
      [a, 3],
      [b, 2],
    ] as const) {
      for (let i = 0; i < n; i++) await postFrom(h, PIN_LOGIN, { identifier: `@${owner.name}`, pin: `00000${i}` }, { ip });
    }
    expect(errorOf(await postFrom(h, PIN_LOGIN, { identifier: `@${owner.name}`, pin: PIN }, { ip: '203.0.113.9' }))).toBe('PIN_LOCKED');
    // ... but not for the owner's device.
    const byPin = await postFrom(h, PIN_LOGIN, { identifier: `@${owner.name}`, pin: PIN }, { ip: '192.0.2.10', cookie: owner.cookie });
    expect(byPin.statusCode).toBe(200);
    expect(deviceCookieOf(byPin)).toBe(owner.cookie);
  });

  it('ten addresses, round after round: the owner device signs in each time; the unrecognised sources stay refused', async () => {
    const owner = await ownerWithPin('192.0.2.11');
    const attackers = addresses('198.51.100', 10);
    for (let round = 0; round < 3; round++) {
      const code = await codeAskedFrom(owner.email, attackers[round]);
      await Promise.all(attackers.map((ip, i) => postFrom(h, VERIFY, { email: owner.email, code: wrong(code, i) }, { ip })));
      await Promise.all(attackers.map((ip, i) => postFrom(h, PIN_LOGIN, { identifier: owner.email, pin: `10000${i}` }, { ip })));
      expect(errorOf(await postFrom(h, VERIFY, { email: owner.email, code }, { ip: '203.0.113.10' }))).toBe('RATE_LIMITED');
      expect(errorOf(await postFrom(h, PIN_LOGIN, { identifier: owner.email, pin: PIN }, { ip: '203.0.113.10' }))).toBe('PIN_LOCKED');
      expect((await postFrom(h, VERIFY, { email: owner.email, code }, { ip: '192.0.2.11', cookie: owner.cookie })).statusCode).toBe(200);
      expect(
        (await postFrom(h, PIN_LOGIN, { identifier: owner.email, pin: PIN }, { ip: '192.0.2.11', cookie: owner.cookie })).statusCode,
      ).toBe(200);
    }
    // The device's own budget is its own: four wrong PINs of its own, then the right one, still signs in.
    for (let i = 0; i < 4; i++) {
      expect(
        errorOf(await postFrom(h, PIN_LOGIN, { identifier: owner.email, pin: `20000${i}` }, { ip: '192.0.2.11', cookie: owner.cookie })),
      ).toBe('INVALID_CREDENTIALS');
    }
    expect(
      (await postFrom(h, PIN_LOGIN, { identifier: owner.email, pin: PIN }, { ip: '192.0.2.11', cookie: owner.cookie })).statusCode,
    ).toBe(200);
  });

  it("no cookie, or another account's device cookie, is refused once the budget is spent; the lock then ends on the clock", async () => {
    const owner = await ownerWithPin('192.0.2.12');
    const other = await signInOnDevice(h, { ip: '192.0.2.13' });
    const code = await codeAskedFrom(owner.email, '198.51.100.31');
    for (const ip of ['198.51.100.31', '198.51.100.32']) {
      for (let i = 0; i < OTP_MAX_ATTEMPTS; i++) await postFrom(h, VERIFY, { email: owner.email, code: wrong(code, i) }, { ip });
    }
    expect(errorOf(await postFrom(h, VERIFY, { email: owner.email, code }, { ip: '192.0.2.12' }))).toBe('RATE_LIMITED');
    expect(errorOf(await postFrom(h, VERIFY, { email: owner.email, code }, { ip: '192.0.2.13', cookie: other.cookie }))).toBe(
      'RATE_LIMITED',
    );
    expect(
      errorOf(
        await postFrom(h, VERIFY, { email: owner.email, code }, { ip: '192.0.2.12', cookie: 'vtu_device=not-a-device-token-at-all' }),
      ),
    ).toBe('RATE_LIMITED');
    // The lock is temporary: 15 minutes later the owner on a new device signs in with a fresh code.
    h.clock.advance(15 * 60_000 + 1000);
    const fresh = await codeAskedFrom(owner.email, '192.0.2.12');
    const newDevice = await postFrom(h, VERIFY, { email: owner.email, code: fresh }, { ip: '192.0.2.12' });
    expect(newDevice.statusCode).toBe(200);
    expect(deviceCookieOf(newDevice)).not.toBeNull();
  });

  it('brute force stays bounded: 10 wrong tries per code from unrecognised sources, 5 per known device', async () => {
    const owner = await signInOnDevice(h, { ip: '192.0.2.14' });
    const device = { ip: '192.0.2.14', cookie: owner.cookie };
    const code = await codeAskedFrom(owner.email, '198.51.100.40');
    const answers = await Promise.all(
      addresses('100.64.7', 60).map((ip, i) => postFrom(h, VERIFY, { email: owner.email, code: wrong(code, i) }, { ip })),
    );
    expect(answers.every((r) => r.statusCode === 400 || r.statusCode === 429)).toBe(true);
    expect(answers.filter((r) => r.statusCode === 400).length).toBeLessThanOrEqual(OTP_MAX_WRONG_PER_CODE);
    const [row] = await rows<{ attempts: number; consumed_at: Date | null }>(
      h.app.services.db,
      sql`SELECT attempts, consumed_at FROM otp_codes WHERE identifier = ${owner.email} AND purpose = 'login' ORDER BY created_at DESC LIMIT 1`,
    );
    expect(row.attempts).toBe(OTP_MAX_WRONG_PER_CODE);
    // The code stays open to the known device, whose tries are its own: four wrong, then the right one.
    for (let i = 0; i < OTP_MAX_ATTEMPTS - 1; i++) {
      expect(errorOf(await postFrom(h, VERIFY, { email: owner.email, code: wrong(code, 100 + i) }, device))).toBe('OTP_INVALID');
    }
    expect((await postFrom(h, VERIFY, { email: owner.email, code }, device)).statusCode).toBe(200);
    // The device's own bound: five wrong tries at a code, then not even the right code is compared.
    const next = await codeAskedFrom(owner.email, '198.51.100.41');
    for (let i = 0; i < OTP_MAX_ATTEMPTS; i++) {
      expect(errorOf(await postFrom(h, VERIFY, { email: owner.email, code: wrong(next, i) }, device))).toBe('OTP_INVALID');
    }
    const sixth = await postFrom(h, VERIFY, { email: owner.email, code: next }, device);
    expect(errorOf(sixth)).toBe('OTP_INVALID');
    expect(sixth.json().error.message).toMatch(/Too many wrong codes/);
  });

  it("a token thief's wrong authenticator codes lock its own budget, not the owner device's step-up", async () => {
    const owner = await signInOnDevice(h, { ip: '192.0.2.16' });
    const secret = await enrollTotp(h, owner);
    h.clock.advance(30_000);
    const good = codeNow(h, secret);
    const bad = good === '123456' ? '654321' : '123456';
    // The thief holds the owner's access token (same session), not the HttpOnly device cookie.
    const thief = { ip: '198.51.100.66', token: owner.token };
    for (let i = 0; i < 4; i++) expect(errorOf(await postFrom(h, STEP_UP, { totpCode: bad }, thief))).toBe('OTP_INVALID');
    const fifth = await postFrom(h, STEP_UP, { totpCode: bad }, thief);
    expect(fifth.statusCode).toBe(429);
    expect(fifth.headers['retry-after']).toBe('900');
    expect((await postFrom(h, STEP_UP, { totpCode: good }, thief)).statusCode).toBe(429);
    // The owner's device, with the same access token and its cookie, gets its grant.
    const grant = await postFrom(h, STEP_UP, { totpCode: good }, { ip: '192.0.2.16', token: owner.token, cookie: owner.cookie });
    expect(grant.statusCode).toBe(200);
    expect(grant.json().grantToken).toMatch(/^grt_/);
    // More wrong codes from the thief change nothing for the owner.
    for (let i = 0; i < 10; i++) await postFrom(h, STEP_UP, { totpCode: bad }, thief);
    h.clock.advance(30_000);
    const next = await postFrom(
      h,
      STEP_UP,
      { totpCode: codeNow(h, secret) },
      { ip: '192.0.2.16', token: owner.token, cookie: owner.cookie },
    );
    expect(next.statusCode).toBe(200);
  });

  it('the device cookie: HttpOnly, SameSite=Strict, scoped to the guessing operations; the token stored only as a hash', async () => {
    const first = await signInOnDevice(h, { ip: '192.0.2.17' });
    h.clock.advance(61_000);
    const send = await postFrom(h, SEND, { email: first.email }, { ip: '192.0.2.17' });
    expect(send.statusCode).toBe(200);
    expect(send.headers['set-cookie']).toBeUndefined();
    const again = await postFrom(
      h,
      VERIFY,
      { email: first.email, code: await signInCode(h, first.email) },
      { ip: '192.0.2.17', cookie: first.cookie },
    );
    const cookies = ([] as string[]).concat(again.headers['set-cookie'] as string[]).filter((c) => c.startsWith('vtu_device='));
    expect(cookies.map((c) => /Path=([^;]+)/.exec(c)![1]).sort()).toEqual([...DEVICE_COOKIE_PATHS].sort());
    for (const c of cookies) {
      expect(c).toContain('HttpOnly');
      expect(c).toContain('SameSite=Strict');
      expect(c).not.toContain('Secure'); // plain-http localhost in tests; see the production harness below
    }
    // The same account on the same browser keeps its token.
    expect(deviceCookieOf(again)).toBe(first.cookie);
    const token = first.cookie.slice('vtu_device='.length);
    const stored = await rows<{ token_hash: string }>(
      h.app.services.db,
      sql`SELECT token_hash FROM known_devices WHERE user_id = ${first.id}`,
    );
    expect(stored).toEqual([{ token_hash: sha256(token) }]);
    // A second account on the same browser: both are remembered, the newest first.
    const second = await signInOnDevice(h, { ip: '192.0.2.17', cookie: first.cookie });
    expect(second.cookie).toMatch(new RegExp(`^vtu_device=[A-Za-z0-9_-]+\\.${token}$`));
  });

  it('the device cookie is Secure when the service is not plain-http localhost', async () => {
    const prod = await createHarness({ env: { PUBLIC_URL: 'https://wallet.example.com' } });
    try {
      const email = 'secure-device@example.com';
      await prod.app.inject({ method: 'POST', url: SEND, payload: { data: { email } } });
      const res = await prod.app.inject({ method: 'POST', url: VERIFY, payload: { data: { email, code: await signInCode(prod, email) } } });
      const cookies = ([] as string[]).concat(res.headers['set-cookie'] as string[]).filter((c) => c.startsWith('vtu_device='));
      expect(cookies.length).toBe(DEVICE_COOKIE_PATHS.length);
      for (const c of cookies) expect(c).toMatch(/; Secure/);
    } finally {
      await prod.close();
    }
  });
});
