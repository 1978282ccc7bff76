import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, lastCode, signIn, type Harness } from '../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const send = (email: string) => call(h, 'POST', '/_serverFn/sendLoginOtpPublicAuth', { email });
const verify = (email: string, code: string, extra: Record<string, unknown> = {}) =>
  call(h, 'POST', '/_serverFn/verifyLoginOtpPublicAuth', { email, code, ...extra });
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('e-mail OTP login (injected clock)', () => {
  it('creates the account on first login and returns the session object', async () => {
    const res = await send('New.User@Example.com');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const code = await lastCode(h, 'new.user@example.com');
    const v = await verify('new.user@example.com', code);
    expect(v.statusCode).toBe(200);
    const s = v.json().session;
    expect(s).toMatchObject({ tokenType: 'bearer', expiresIn: 900, user: { email: 'new.user@example.com', username: null } });
    expect(typeof s.accessToken).toBe('string');
    expect(typeof s.refreshToken).toBe('string');
    expect(new Date(s.expiresAt).getTime()).toBe(h.clock.now().getTime() + 900_000);
  });

  it('a code is single use', async () => {
    const email = 'single@example.com';
    await send(email);
    const code = await lastCode(h, email);
    expect((await verify(email, code)).statusCode).toBe(200);
    const again = await verify(email, code);
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('OTP_INVALID');
  });

  it('a code expires after 10 minutes', async () => {
    const email = 'expiry@example.com';
    await send(email);
    const code = await lastCode(h, email);
    h.clock.advance(10 * 60 * 1000);
    const res = await verify(email, code);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('OTP_EXPIRED');
  });

  it('a code still works just before 10 minutes', async () => {
    const email = 'almost@example.com';
    await send(email);
    const code = await lastCode(h, email);
    h.clock.advance(10 * 60 * 1000 - 1000);
    expect((await verify(email, code)).statusCode).toBe(200);
  });

  it('5 wrong tries burn the code', async () => {
    const email = 'burn@example.com';
    await send(email);
    const code = await lastCode(h, email);
    for (let i = 0; i < 5; i++) {
      const r = await verify(email, wrong(code));
      expect(r.json().error.code).toBe('OTP_INVALID');
    }
    const res = await verify(email, code);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('OTP_INVALID');
  });

  it('4 wrong tries still leave the right code usable', async () => {
    const email = 'four@example.com';
    await send(email);
    const code = await lastCode(h, email);
    for (let i = 0; i < 4; i++) await verify(email, wrong(code));
    expect((await verify(email, code)).statusCode).toBe(200);
  });

  it('60 s resend cooldown, reported by getOtpCooldown', async () => {
    const email = 'cool@example.com';
    expect((await send(email)).statusCode).toBe(200);
    const again = await send(email);
    expect(again.statusCode).toBe(429);
    expect(again.json().error.code).toBe('OTP_COOLDOWN');
    expect(again.headers['retry-after']).toBe('60');
    h.clock.advance(20_000);
    const cd = await call(h, 'POST', '/_serverFn/getOtpCooldownPublicAuth', { email });
    expect(cd.json()).toEqual({ ok: true, secondsRemaining: 40 });
    h.clock.advance(40_000);
    expect((await call(h, 'POST', '/_serverFn/getOtpCooldownPublicAuth', { email })).json().secondsRemaining).toBe(0);
    expect((await send(email)).statusCode).toBe(200);
  });

  it('cooldowns grow after 5 codes a day; one requester gets 10 codes a day per address, others are not capped by it', async () => {
    const email = 'cap@example.com';
    const waits: number[] = [];
    for (let i = 0; i < 10; i++) {
      expect((await send(email)).statusCode).toBe(200);
      const wait = (await call(h, 'POST', '/_serverFn/getOtpCooldownPublicAuth', { email })).json().secondsRemaining;
      waits.push(wait);
      h.clock.advance(wait * 1000);
    }
    // 60 s for the first five, then doubling up to an hour: no per-address daily cap a stranger could spend.
    expect(waits).toEqual([60, 60, 60, 60, 60, 120, 240, 480, 960, 1920]);
    const res = await send(email);
    expect(res.statusCode).toBe(429);
    expect(res.json().error.code).toBe('OTP_DAILY_LIMIT');
    const elsewhere = await h.app.inject({
      method: 'POST',
      url: '/_serverFn/sendLoginOtpPublicAuth',
      payload: { data: { email } },
      remoteAddress: '10.20.30.40',
    });
    expect(elsewhere.statusCode).toBe(200);
    h.clock.advance(24 * 3600 * 1000);
    expect((await send(email)).statusCode).toBe(200);
  });

  it('parallel sends within the cooldown send one code', async () => {
    const email = 'parallel@example.com';
    const results = await Promise.all(Array.from({ length: 10 }, () => send(email)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    const box = await h.app.inject({ method: 'GET', url: `/sandbox/mailbox?to=${email}` });
    expect(box.json().items).toHaveLength(1);
  });

  it('bad e-mail and bad code format are 400 with issues', async () => {
    const r1 = await send('not-an-email');
    expect(r1.statusCode).toBe(400);
    expect(r1.json().error.issues[0].path).toBe('email');
    const r2 = await verify('x@example.com', '12ab56');
    expect(r2.statusCode).toBe(400);
    expect(r2.json().error.code).toBe('VALIDATION_FAILED');
  });
});

describe('sessions', () => {
  it('refresh rotates; reusing a spent refresh token revokes the family', async () => {
    const u = await signIn(h);
    const r1 = await call(h, 'POST', '/_serverFn/refreshSessionPublicAuth', { refreshToken: u.refreshToken });
    expect(r1.statusCode).toBe(200);
    const s1 = r1.json().session;
    expect(s1.refreshToken).not.toBe(u.refreshToken);
    // New access token works.
    expect((await call(h, 'GET', '/_serverFn/getProfileBearerSettings', undefined, { token: s1.accessToken })).statusCode).toBe(200);
    // Reuse of the first (spent) refresh token: the whole session ends.
    const reuse = await call(h, 'POST', '/_serverFn/refreshSessionPublicAuth', { refreshToken: u.refreshToken });
    expect(reuse.statusCode).toBe(401);
    expect((await call(h, 'POST', '/_serverFn/refreshSessionPublicAuth', { refreshToken: s1.refreshToken })).statusCode).toBe(401);
    expect((await call(h, 'GET', '/_serverFn/getProfileBearerSettings', undefined, { token: s1.accessToken })).statusCode).toBe(401);
  });

  it('signOut ends the session', async () => {
    const u = await signIn(h);
    expect((await call(h, 'POST', '/_serverFn/signOutBearerAuth', {}, { token: u.token })).statusCode).toBe(200);
    expect((await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: u.token })).statusCode).toBe(401);
    expect((await call(h, 'POST', '/_serverFn/refreshSessionPublicAuth', { refreshToken: u.refreshToken })).statusCode).toBe(401);
  });

  it('ADMIN_EMAILS grants the operator role', async () => {
    const a = await signIn(h, 'admin@example.com');
    const p = await call(h, 'GET', '/_serverFn/getProfileBearerSettings', undefined, { token: a.token });
    expect(p.json().profile.role).toBe('admin');
    const u = await signIn(h);
    expect((await call(h, 'GET', '/_serverFn/getProfileBearerSettings', undefined, { token: u.token })).json().profile.role).toBe('user');
  });
});

describe('profile', () => {
  it('updates username (unique, case-insensitive), full name and phone (normalised)', async () => {
    const a = await signIn(h);
    const b = await signIn(h);
    const res = await call(
      h,
      'POST',
      '/_serverFn/updateProfileBearerSettings',
      { username: 'Ada_Lovelace', fullName: 'Ada Lovelace', phone: '+2348031234567' },
      { token: a.token },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().profile).toMatchObject({
      username: 'ada_lovelace',
      fullName: 'Ada Lovelace',
      phone: '08031234567',
      phoneVerified: false,
    });
    const taken = await call(h, 'POST', '/_serverFn/updateProfileBearerSettings', { username: 'ADA_LOVELACE' }, { token: b.token });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.code).toBe('USERNAME_TAKEN');
    for (const bad of [
      { username: 'ab' },
      { username: 'has space' },
      { username: 'x'.repeat(21) },
      { phone: '12345' },
      { fullName: 'A' },
    ]) {
      const r = await call(h, 'POST', '/_serverFn/updateProfileBearerSettings', bad, { token: b.token });
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
    }
  });

  it('concurrent claims of one username: exactly one wins', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => signIn(h)));
    const results = await Promise.all(
      users.map((u) => call(h, 'POST', '/_serverFn/updateProfileBearerSettings', { username: 'racer' }, { token: u.token })),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(4);
  });
});

describe('logs', () => {
  it('never carry OTP codes or tokens', async () => {
    const email = 'logscan@example.com';
    await send(email);
    const code = await lastCode(h, email);
    const v = await verify(email, code);
    const { accessToken, refreshToken } = v.json().session;
    await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: accessToken });
    const all = h.logs.join('\n');
    expect(all).not.toContain(code);
    expect(all).not.toContain(accessToken);
    expect(all).not.toContain(refreshToken);
  });
});
