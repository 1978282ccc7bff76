import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { call, createHarness, lastCode, signIn, type Harness } from '../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const S = (name: string, suffix = 'BearerAuth') => `/_serverFn/${name}${suffix}`;
/** Another session of the same account (the login code has a 60 s resend cooldown). */
async function again(email: string) {
  h.clock.advance(61_000);
  return signIn(h, email);
}

describe('single-device session', () => {
  it('last claim wins: the other session gets 401 SESSION_SUPERSEDED everywhere, refresh included', async () => {
    const a = await signIn(h);
    const b = await again(a.email); // same account, second device
    const ca = await call(h, 'POST', S('claimSession'), { deviceId: 'device-aaaa-1111' }, { token: a.token });
    expect(ca.statusCode).toBe(200);
    // b's session was open and unclaimed: it ends too (every other session of the user).
    expect(ca.json().supersededOther).toBe(true);
    const bOp = await call(h, 'GET', '/_serverFn/getProfileBearerSettings', undefined, { token: b.token });
    expect(bOp.statusCode).toBe(401);
    expect(bOp.json().error.code).toBe('SESSION_SUPERSEDED');

    const c = await again(a.email);
    // A later session works normally until it claims in turn.
    expect((await call(h, 'GET', '/_serverFn/getProfileBearerSettings', undefined, { token: c.token })).statusCode).toBe(200);
    expect((await call(h, 'GET', '/_serverFn/getProfileBearerSettings', undefined, { token: a.token })).statusCode).toBe(200);
    const cc = await call(h, 'POST', S('claimSession'), { deviceId: 'device-cccc-3333', userAgent: 'TestPhone/1.0' }, { token: c.token });
    expect(cc.json().supersededOther).toBe(true);

    for (const [method, url, input] of [
      ['GET', '/_serverFn/getProfileBearerSettings', undefined],
      ['POST', S('heartbeatSession'), { deviceId: 'device-aaaa-1111' }],
      ['POST', S('claimSession'), { deviceId: 'device-aaaa-1111' }],
      ['GET', '/_serverFn/getWalletStateBearerWallet', undefined],
    ] as const) {
      const r = await call(h, method, url, input, { token: a.token });
      expect(r.statusCode, url).toBe(401);
      expect(r.json().error.code).toBe('SESSION_SUPERSEDED');
    }
    const refresh = await call(h, 'POST', '/_serverFn/refreshSessionPublicAuth', { refreshToken: a.refreshToken });
    expect(refresh.statusCode).toBe(401);
    expect(refresh.json().error.code).toBe('SESSION_SUPERSEDED');

    // Claiming again from the same session is fine and ends nobody.
    const reclaim = await call(h, 'POST', S('claimSession'), { deviceId: 'device-cccc-3333' }, { token: c.token });
    expect(reclaim.json().supersededOther).toBe(false);
  });

  it('two devices claiming at once: exactly one keeps its session', async () => {
    const a = await signIn(h);
    const b = await again(a.email);
    const [ra, rb] = await Promise.all([
      call(h, 'POST', S('claimSession'), { deviceId: 'device-race-aaaa' }, { token: a.token }),
      call(h, 'POST', S('claimSession'), { deviceId: 'device-race-bbbb' }, { token: b.token }),
    ]);
    const codes = [ra.statusCode, rb.statusCode].sort();
    const alive = await Promise.all(
      [a, b].map(async (u) => (await call(h, 'GET', '/_serverFn/getProfileBearerSettings', undefined, { token: u.token })).statusCode),
    );
    expect(alive.filter((s) => s === 200)).toHaveLength(1);
    expect(codes[0]).toBe(200);
  });

  it('heartbeat keeps a claim; without one for 2 minutes the claim lapses; release gives it up', async () => {
    const u = await signIn(h);
    await call(h, 'POST', S('claimSession'), { deviceId: 'device-hb-000001' }, { token: u.token });
    h.clock.advance(90_000);
    const hb = await call(h, 'POST', S('heartbeatSession'), { deviceId: 'device-hb-000001' }, { token: u.token });
    expect(hb.json()).toMatchObject({ ok: true, claimed: true, lapsed: false });
    h.clock.advance(90_000);
    expect((await call(h, 'POST', S('heartbeatSession'), { deviceId: 'device-hb-000001' }, { token: u.token })).json().claimed).toBe(true);

    const wrongDevice = await call(h, 'POST', S('heartbeatSession'), { deviceId: 'device-hb-other' }, { token: u.token });
    expect(wrongDevice.statusCode).toBe(409);

    h.clock.advance(2 * 60_000 + 1000);
    const lapsed = await call(h, 'POST', S('heartbeatSession'), { deviceId: 'device-hb-000001' }, { token: u.token });
    expect(lapsed.json()).toMatchObject({ ok: true, claimed: false, lapsed: true });
    // The lapsed claim is gone; the session itself still works, and can claim again.
    expect((await call(h, 'POST', S('heartbeatSession'), { deviceId: 'device-hb-000001' }, { token: u.token })).json()).toMatchObject({
      claimed: false,
      lapsed: false,
    });
    await call(h, 'POST', S('claimSession'), { deviceId: 'device-hb-000001' }, { token: u.token });
    expect((await call(h, 'POST', S('releaseSession'), {}, { token: u.token })).json()).toEqual({ ok: true, released: true });
    expect((await call(h, 'POST', S('releaseSession'), {}, { token: u.token })).json()).toEqual({ ok: true, released: false });
    expect((await call(h, 'POST', S('heartbeatSession'), { deviceId: 'device-hb-000001' }, { token: u.token })).json().claimed).toBe(false);
  });

  it('validates inputs and requires a token', async () => {
    for (const [name, input] of [
      ['claimSession', { deviceId: 'device-x-000001' }],
      ['heartbeatSession', { deviceId: 'device-x-000001' }],
      ['releaseSession', {}],
    ] as const) {
      expect((await call(h, 'POST', S(name), input)).statusCode, name).toBe(401);
    }
    const u = await signIn(h);
    for (const [name, input] of [
      ['claimSession', {}],
      ['claimSession', { deviceId: 'short' }],
      ['claimSession', { deviceId: 'has spaces in it' }],
      ['claimSession', { deviceId: 'device-x-000001', userAgent: 'x'.repeat(301) }],
      ['heartbeatSession', { deviceId: 42 }],
      ['releaseSession', { deviceId: 'device-x-000001' }],
    ] as const) {
      const r = await call(h, 'POST', S(name), input as Record<string, unknown>, { token: u.token });
      expect(r.statusCode, `${name} ${JSON.stringify(input)}`).toBe(400);
    }
  });
});

describe('phone verification', () => {
  it('sends an SMS code, verifies it, stores the phone on the profile, and answers isPhoneVerified', async () => {
    const u = await signIn(h);
    const send = await call(h, 'POST', S('sendPhoneOtp', 'PublicAuth'), { phone: '+2348031234567' });
    expect(send.statusCode).toBe(200);
    expect(send.json()).toEqual({ ok: true, sent: true, expiresInSeconds: 600 });
    const code = await lastCode(h, '08031234567', 'sms');
    expect(send.body).not.toContain(code);

    const wrong = await call(
      h,
      'POST',
      S('verifyPhoneOtp', 'PublicAuth'),
      { phone: '08031234567', code: code === '000000' ? '111111' : '000000' },
      { token: u.token },
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('OTP_INVALID');

    const ok = await call(h, 'POST', S('verifyPhoneOtp', 'PublicAuth'), { phone: '2348031234567', code }, { token: u.token });
    expect(ok.json()).toEqual({ ok: true, verified: true, attachedToProfile: true });
    expect((await call(h, 'POST', S('verifyPhoneOtp', 'PublicAuth'), { phone: '08031234567', code }, { token: u.token })).statusCode).toBe(
      400,
    );

    expect((await call(h, 'POST', S('isPhoneVerified'), { phone: '0803 123 4567' }, { token: u.token })).json()).toEqual({
      ok: true,
      verified: true,
    });
    expect((await call(h, 'POST', S('isPhoneVerified'), { phone: '08039999999' }, { token: u.token })).json().verified).toBe(false);
    const profile = (await call(h, 'GET', '/_serverFn/getProfileBearerSettings', undefined, { token: u.token })).json().profile;
    expect(profile).toMatchObject({ phone: '08031234567', phoneVerified: true });

    // A recycled number: the next verified owner takes it over.
    const v = await signIn(h);
    h.clock.advance(61_000);
    await call(h, 'POST', S('sendPhoneOtp', 'PublicAuth'), { phone: '08031234567' });
    await call(
      h,
      'POST',
      S('verifyPhoneOtp', 'PublicAuth'),
      { phone: '08031234567', code: await lastCode(h, '08031234567', 'sms') },
      { token: v.token },
    );
    expect((await call(h, 'POST', S('isPhoneVerified'), { phone: '08031234567' }, { token: v.token })).json().verified).toBe(true);
    expect((await call(h, 'POST', S('isPhoneVerified'), { phone: '08031234567' }, { token: u.token })).json().verified).toBe(false);
  });

  it('verifies without a token (possession only) and does not touch any profile', async () => {
    await call(h, 'POST', S('sendPhoneOtp', 'PublicAuth'), { phone: '08051112222' });
    const r = await call(h, 'POST', S('verifyPhoneOtp', 'PublicAuth'), {
      phone: '08051112222',
      code: await lastCode(h, '08051112222', 'sms'),
    });
    expect(r.json()).toEqual({ ok: true, verified: true, attachedToProfile: false });
  });

  it('caps SMS sends: 60 s cooldown, growing after 5, and 10 a day per number from one requester', async () => {
    const phone = '08091234000';
    expect((await call(h, 'POST', S('sendPhoneOtp', 'PublicAuth'), { phone })).statusCode).toBe(200);
    const cool = await call(h, 'POST', S('sendPhoneOtp', 'PublicAuth'), { phone });
    expect(cool.statusCode).toBe(429);
    expect(cool.json().error.code).toBe('OTP_COOLDOWN');
    const cooldown = () => h.app.services.otp.cooldownSeconds('phone', '08091234000');
    for (let i = 0; i < 9; i++) {
      h.clock.advance((await cooldown()) * 1000);
      expect((await call(h, 'POST', S('sendPhoneOtp', 'PublicAuth'), { phone })).statusCode).toBe(200);
    }
    h.clock.advance((await cooldown()) * 1000);
    const capped = await call(h, 'POST', S('sendPhoneOtp', 'PublicAuth'), { phone });
    expect(capped.statusCode).toBe(429);
    expect(capped.json().error.code).toBe('OTP_DAILY_LIMIT');
    const box = (await h.app.inject({ method: 'GET', url: `/sandbox/sms?to=${phone}` })).json().items;
    expect(box).toHaveLength(10);
  });

  it('refuses non-Nigerian or junk numbers and bad codes', async () => {
    for (const input of [{ phone: '+14155550100' }, { phone: '0803123' }, { phone: 8031234567 }, {}]) {
      const r = await call(h, 'POST', S('sendPhoneOtp', 'PublicAuth'), input as Record<string, unknown>);
      expect(r.statusCode).toBe(400);
      expect(r.json().error.code).toBe('VALIDATION_FAILED');
    }
    expect((await call(h, 'POST', S('verifyPhoneOtp', 'PublicAuth'), { phone: '08031234567', code: '12ab56' })).statusCode).toBe(400);
    const u = await signIn(h);
    expect((await call(h, 'POST', S('isPhoneVerified'), { phone: 'abc' }, { token: u.token })).statusCode).toBe(400);
  });

  it('no OTP appears in a log line', async () => {
    await call(h, 'POST', S('sendPhoneOtp', 'PublicAuth'), { phone: '08071239876' });
    const code = await lastCode(h, '08071239876', 'sms');
    expect(h.logs.join('\n')).not.toMatch(new RegExp(`(?<![\\d.])${code}(?!\\d)`));
  });
});

describe('retention', () => {
  it('the hourly cleanup drops old failure traces and spent grants, and keeps recent ones', async () => {
    const { db, jobs } = h.app.services;
    const count = async (q: ReturnType<typeof sql>) => ((await db.execute(q)) as unknown as { rows: { n: number }[] }).rows[0].n;
    await h.app.inject({
      method: 'POST',
      url: '/api/public/login-failed',
      payload: { identifier: 'old@example.com' },
      remoteAddress: '10.250.1.1',
    });
    const u = await signIn(h);
    await call(h, 'POST', '/_serverFn/sendStepupEmailCodeBearer2FA', {}, { token: u.token });
    await call(h, 'POST', '/_serverFn/verifyStepupChallengeBearer2FA', { totpCode: await lastCode(h, u.email) }, { token: u.token });
    expect(await count(sql`SELECT count(*)::int AS n FROM stepup_grants WHERE user_id = ${u.id}`)).toBe(1);

    h.clock.advance(31 * 24 * 3600_000);
    await h.app.inject({
      method: 'POST',
      url: '/api/public/login-failed',
      payload: { identifier: 'new@example.com' },
      remoteAddress: '10.250.1.2',
    });
    await jobs.tickCrons();
    await jobs.drain();
    expect(await count(sql`SELECT count(*)::int AS n FROM stepup_grants WHERE user_id = ${u.id}`)).toBe(0);
    expect(await count(sql`SELECT count(*)::int AS n FROM login_events WHERE kind = 'failure' AND ip = '10.250.1.1'`)).toBe(0);
    expect(await count(sql`SELECT count(*)::int AS n FROM login_events WHERE kind = 'failure' AND ip = '10.250.1.2'`)).toBe(1);
  });
});
