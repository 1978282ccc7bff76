import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, emailGrant, knownDevice, lastCode, signIn, type Harness } from '../helpers/harness.js';
import { matchTotpStep, totpCode } from '../../src/modules/security/totp.js';
import { base32Decode, codeNow, enrollTotp, grantFor, rfcTotp } from './rfc6238.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const P = (name: string) => `/_serverFn/${name}Bearer2FA`;
// RFC 6238 appendix B, SHA-1 seed "12345678901234567890".
const RFC_KEY = Buffer.from('12345678901234567890', 'ascii');
const RFC_BASE32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const RFC_VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('RFC 6238', () => {
  it('the independent implementation reproduces the RFC test vectors', () => {
    for (const [t, expected] of RFC_VECTORS) expect(rfcTotp(RFC_KEY, t, 8)).toBe(expected);
    expect(base32Decode(RFC_BASE32).equals(RFC_KEY)).toBe(true);
  });

  it("the service's TOTP matches the RFC vectors (6-digit truncation) and finds the step within ±1", () => {
    for (const [t, expected] of RFC_VECTORS) {
      const six = expected.slice(-6);
      expect(totpCode(RFC_BASE32, t * 1000)).toBe(six);
      expect(matchTotpStep(RFC_BASE32, six, t * 1000)).toBe(Math.floor(t / 30));
      expect(matchTotpStep(RFC_BASE32, six, t * 1000 + 30_000)).toBe(Math.floor(t / 30));
      expect(matchTotpStep(RFC_BASE32, six, t * 1000 + 90_000)).toBeNull();
    }
  });
});

describe('two-factor step-up', () => {
  it('enrolls: URI, QR data URL, secret encrypted at rest; confirmation with an independently computed code', async () => {
    const u = await signIn(h);
    let st = await call(h, 'POST', P('getMyTwoFactor'), {}, { token: u.token });
    expect(st.json()).toMatchObject({ ok: true, enrolled: false, confirmed: false, grantValid: false });

    // Enrolling is a credential change: without a recent proof it is refused.
    const noGrant = await call(h, 'POST', P('beginTotpEnrollment'), {}, { token: u.token });
    expect(noGrant.statusCode).toBe(403);
    expect(noGrant.json().error.code).toBe('STEP_UP_REQUIRED');
    const headers = await emailGrant(h, u);
    const begin = await call(h, 'POST', P('beginTotpEnrollment'), {}, { token: u.token, headers });
    expect(begin.statusCode).toBe(200);
    const { uri, secret, qrDataUrl } = begin.json();
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    expect(uri).toContain(`secret=${secret}`);
    expect(uri).toContain('algorithm=SHA1');
    expect(uri).toContain('digits=6');
    expect(uri).toContain('period=30');
    expect(qrDataUrl).toMatch(/^data:image\/png;base64,/);
    expect(base32Decode(secret)).toHaveLength(20);

    const row = await h.app.services.db.execute(
      (await import('drizzle-orm')).sql`SELECT secret_enc FROM totp_factors WHERE user_id = ${u.id}`,
    );
    const stored = (row as unknown as { rows: { secret_enc: string }[] }).rows[0].secret_enc;
    expect(stored).not.toContain(secret);

    st = await call(h, 'POST', P('getMyTwoFactor'), {}, { token: u.token });
    expect(st.json()).toMatchObject({ enrolled: true, confirmed: false });

    const wrong = await call(
      h,
      'POST',
      P('confirmTotpEnrollment'),
      { code: codeNow(h, secret) === '000000' ? '111111' : '000000' },
      { token: u.token, headers },
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('OTP_INVALID');

    const ok = await call(h, 'POST', P('confirmTotpEnrollment'), { code: codeNow(h, secret) }, { token: u.token, headers });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ enrolled: true, confirmed: true });

    // A confirmed factor is never silently replaced.
    const again = await call(h, 'POST', P('beginTotpEnrollment'), {}, { token: u.token, headers });
    expect(again.statusCode).toBe(409);
  });

  it('refuses a TOTP replay within the window, accepts the next step, and binds grants to the session', async () => {
    const u = await signIn(h);
    const secret = await enrollTotp(h, u);
    // The confirmation's code is spent: the same code again is a replay.
    const replay = await call(h, 'POST', P('verifyStepupChallenge'), { totpCode: codeNow(h, secret) }, { token: u.token });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.code).toBe('OTP_INVALID');

    h.clock.advance(30_000);
    const code = codeNow(h, secret);
    const first = await call(h, 'POST', P('verifyStepupChallenge'), { totpCode: code }, { token: u.token });
    expect(first.statusCode).toBe(200);
    const { grantToken, expiresAt } = first.json();
    expect(new Date(expiresAt).getTime() - h.clock.now().getTime()).toBe(10 * 60_000);
    const second = await call(h, 'POST', P('verifyStepupChallenge'), { totpCode: code }, { token: u.token });
    expect(second.statusCode).toBe(400);

    expect((await call(h, 'POST', P('getMyTwoFactor'), { grantToken }, { token: u.token })).json().grantValid).toBe(true);
    // Header form works too.
    expect(
      (await call(h, 'POST', P('getMyTwoFactor'), {}, { token: u.token, headers: { 'x-grant-token': grantToken } })).json().grantValid,
    ).toBe(true);

    // Another session of the same user cannot use it.
    h.clock.advance(61_000);
    const sameUserOtherSession = await signIn(h, u.email);
    expect((await call(h, 'POST', P('getMyTwoFactor'), { grantToken }, { token: sameUserOtherSession.token })).json().grantValid).toBe(
      false,
    );
    const otherUser = await signIn(h);
    expect((await call(h, 'POST', P('getMyTwoFactor'), { grantToken }, { token: otherUser.token })).json().grantValid).toBe(false);
    expect((await call(h, 'POST', P('getMyTwoFactor'), { grantToken }, { token: u.token })).json().grantValid).toBe(true);
  });

  it('one TOTP code used by parallel requests yields exactly one grant', async () => {
    const u = await signIn(h);
    const secret = await enrollTotp(h, u);
    h.clock.advance(30_000);
    const code = codeNow(h, secret);
    const res = await Promise.all(
      Array.from({ length: 6 }, () => call(h, 'POST', P('verifyStepupChallenge'), { totpCode: code }, { token: u.token })),
    );
    expect(res.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(res.filter((r) => r.statusCode === 400 && r.json().error.code === 'OTP_INVALID')).toHaveLength(5);
  });

  it('grants expire after 10 minutes and can be revoked; the step-up gate follows them', async () => {
    const u = await signIn(h);
    const secret = await enrollTotp(h, u);
    const setPin = (grant?: string) =>
      call(
        h,
        'POST',
        '/_serverFn/setLoginPinBearerAuth',
        { pin: '482915' },
        { token: u.token, headers: grant ? { 'x-grant-token': grant } : {} },
      );

    const none = await setPin();
    expect(none.statusCode).toBe(403);
    expect(none.json().error.code).toBe('STEP_UP_REQUIRED');
    const disable = await call(h, 'POST', '/_serverFn/disableLoginPinBearerAuth', {}, { token: u.token });
    expect(disable.statusCode).toBe(403);
    expect(disable.json().error.code).toBe('STEP_UP_REQUIRED');
    expect((await setPin('grt_not-a-real-grant')).statusCode).toBe(403);

    const g1 = await grantFor(h, u, secret);
    expect((await setPin(g1)).statusCode).toBe(200);
    h.clock.advance(10 * 60_000 + 1000);
    expect((await setPin(g1)).json().error.code).toBe('STEP_UP_REQUIRED');

    const g2 = await grantFor(h, u, secret);
    expect((await setPin(g2)).statusCode).toBe(200);
    const rv = await call(h, 'POST', P('revokeGrant'), { grantToken: g2 }, { token: u.token });
    expect(rv.statusCode).toBe(200);
    expect(rv.json().revoked).toBe(true);
    expect((await setPin(g2)).json().error.code).toBe('STEP_UP_REQUIRED');
    expect((await call(h, 'POST', P('getMyTwoFactor'), { grantToken: g2 }, { token: u.token })).json().grantValid).toBe(false);

    // Another user's grant is not found (and is not revoked).
    const g3 = await grantFor(h, u, secret);
    const intruder = await signIn(h);
    const foreign = await call(h, 'POST', P('revokeGrant'), { grantToken: g3 }, { token: intruder.token });
    expect(foreign.statusCode).toBe(404);
    expect((await setPin(g3)).statusCode).toBe(200);
  });

  it('e-mailed step-up codes give a grant only where e-mail is not the only factor, are single use, and are capped', async () => {
    // Without TOTP an e-mailed code gives a grant (credential changes need one).
    const plain = await signIn(h);
    expect((await call(h, 'POST', P('sendStepupEmailCode'), {}, { token: plain.token })).statusCode).toBe(200);
    const plainGrant = await call(
      h,
      'POST',
      P('verifyStepupChallenge'),
      { totpCode: await lastCode(h, plain.email) },
      { token: plain.token },
    );
    expect(plainGrant.statusCode).toBe(200);

    // A login code is a different purpose: it never works as a step-up code.
    h.clock.advance(61_000);
    await call(h, 'POST', '/_serverFn/sendLoginOtpPublicAuth', { email: plain.email });
    const loginCode = await lastCode(h, plain.email);
    const crossed = await call(h, 'POST', P('verifyStepupChallenge'), { totpCode: loginCode }, { token: plain.token });
    expect(crossed.statusCode).toBe(400);
    expect(crossed.body).not.toContain(loginCode);

    // With TOTP on, a session opened by an e-mailed login code must use the app code (docs/design.md §5).
    const u = await signIn(h);
    const secret = await enrollTotp(h, u);
    // The code is sent (it serves a two-factor reset) but gives this session no grant.
    h.clock.advance(61_000);
    expect((await call(h, 'POST', P('sendStepupEmailCode'), {}, { token: u.token })).statusCode).toBe(200);
    const refused = await call(h, 'POST', P('verifyStepupChallenge'), { totpCode: await lastCode(h, u.email) }, { token: u.token });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toMatch(/authenticator/);

    // A session opened with the login PIN may confirm with an e-mailed code (PIN + e-mail).
    const name = `st_${u.id.slice(0, 8)}`;
    await call(h, 'POST', '/_serverFn/updateProfileBearerSettings', { username: name }, { token: u.token });
    const g = await grantFor(h, u, secret);
    expect(
      (await call(h, 'POST', '/_serverFn/setLoginPinBearerAuth', { pin: '605148' }, { token: u.token, headers: { 'x-grant-token': g } }))
        .statusCode,
    ).toBe(200);
    // From the device the account signed in on (issue 43: a new device would first need the authenticator).
    const pinLogin = await call(
      h,
      'POST',
      '/_serverFn/startPinLoginPublicAuth',
      { identifier: `@${name}`, pin: '605148' },
      { headers: knownDevice(h, u.email) },
    );
    const pinToken = pinLogin.json().session.accessToken as string;

    h.clock.advance(61_000);
    const send = await call(h, 'POST', P('sendStepupEmailCode'), {}, { token: pinToken });
    expect(send.statusCode).toBe(200);
    expect(send.json()).toMatchObject({ sent: true });
    const code = await lastCode(h, u.email);
    expect(send.body).not.toContain(code);
    // The e-mail-opened session cannot use the e-mailed code either.
    expect((await call(h, 'POST', P('verifyStepupChallenge'), { totpCode: code }, { token: u.token })).statusCode).toBe(400);
    const ok = await call(h, 'POST', P('verifyStepupChallenge'), { totpCode: code }, { token: pinToken });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().grantToken).toMatch(/^grt_/);
    expect((await call(h, 'POST', P('verifyStepupChallenge'), { totpCode: code }, { token: pinToken })).statusCode).toBe(400);

    const cool = await call(h, 'POST', P('sendStepupEmailCode'), {}, { token: pinToken });
    expect(cool.statusCode).toBe(429);
    expect(cool.json().error.code).toBe('OTP_COOLDOWN');
    expect(Number(cool.headers['retry-after'])).toBeGreaterThan(0);
    // Cooldowns grow (no per-address daily cap a stranger could spend); one requester gets 10 a day.
    // (Through the service: the waits outlast an access token.)
    const { otp } = h.app.services;
    let sent = 3; // enrolment's grant, the refused session's code, the PIN session's code
    for (;;) {
      h.clock.advance((await otp.cooldownSeconds('stepup', u.email)) * 1000);
      const r = await otp.issue('stepup', u.email, '127.0.0.1').then(
        () => 'sent',
        (e: { code: string }) => e.code,
      );
      if (r !== 'sent') {
        expect(r).toBe('OTP_DAILY_LIMIT');
        break;
      }
      sent++;
    }
    expect(sent).toBe(10);
    // Another requester is not capped by this one.
    h.clock.advance((await otp.cooldownSeconds('stepup', u.email)) * 1000);
    await expect(otp.issue('stepup', u.email, '10.9.8.7')).resolves.toMatch(/^\d{6}$/);
  });

  it('five wrong codes lock step-up verification for 15 minutes', async () => {
    const u = await signIn(h);
    const secret = await enrollTotp(h, u);
    h.clock.advance(30_000);
    const good = codeNow(h, secret);
    const bad = good === '123456' ? '654321' : '123456';
    for (let i = 0; i < 4; i++)
      expect((await call(h, 'POST', P('verifyStepupChallenge'), { totpCode: bad }, { token: u.token })).statusCode).toBe(400);
    const fifth = await call(h, 'POST', P('verifyStepupChallenge'), { totpCode: bad }, { token: u.token });
    expect(fifth.statusCode).toBe(429);
    expect(fifth.headers['retry-after']).toBe('900');
    expect((await call(h, 'POST', P('verifyStepupChallenge'), { totpCode: good }, { token: u.token })).statusCode).toBe(429);
  });

  it('validates input and requires a token', async () => {
    const u = await signIn(h);
    for (const [name, input] of [
      ['getMyTwoFactor', {}],
      ['beginTotpEnrollment', {}],
      ['confirmTotpEnrollment', { code: '123456' }],
      ['sendStepupEmailCode', {}],
      ['verifyStepupChallenge', { totpCode: '123456' }],
      ['revokeGrant', { grantToken: 'grt_x' }],
    ] as const) {
      const res = await call(h, 'POST', P(name), input);
      expect(res.statusCode, name).toBe(401);
    }
    for (const [name, input] of [
      ['confirmTotpEnrollment', { code: '12a456' }],
      ['confirmTotpEnrollment', {}],
      ['verifyStepupChallenge', { totpCode: '1234567' }],
      ['verifyStepupChallenge', {}],
      ['revokeGrant', {}],
      ['getMyTwoFactor', { grantToken: 5 }],
      ['beginTotpEnrollment', { extra: true }],
    ] as const) {
      const res = await call(h, 'POST', P(name), input as Record<string, unknown>, { token: u.token });
      expect(res.statusCode, name).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
    }
    // No factor yet: confirming is a conflict, not a crash.
    const headers = await emailGrant(h, u);
    expect((await call(h, 'POST', P('confirmTotpEnrollment'), { code: '123456' }, { token: u.token, headers })).statusCode).toBe(409);
  });

  it('the step-up gate passes when 2FA is not enrolled; credential changes need a grant all the same', async () => {
    const u = await signIn(h);
    // A session opened by the e-mailed code minutes ago may set a FIRST PIN (test/settings/first-pin.test.ts); this
    // one is older.
    h.clock.advance(10 * 60_000);
    const res = await call(h, 'POST', '/_serverFn/setLoginPinBearerAuth', { pin: '582914' }, { token: u.token });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('STEP_UP_REQUIRED');
    const ok = await call(
      h,
      'POST',
      '/_serverFn/setLoginPinBearerAuth',
      { pin: '582914' },
      { token: u.token, headers: await emailGrant(h, u) },
    );
    expect(ok.statusCode).toBe(200);
    await expect(
      h.app.services.stepUp!.require(
        { id: u.id, email: u.email, username: null, role: 'user', operatorRoles: [], sessionId: u.sessionId, kycTier: 0 },
        undefined,
      ),
    ).resolves.toBeUndefined();
  });

  it('never logs a code, grant or secret, and answers none but the enrollment secret', async () => {
    const u = await signIn(h);
    const secret = await enrollTotp(h, u);
    const totpUsed = codeNow(h, secret);
    const grant = await grantFor(h, u, secret);
    const plain = await signIn(h);
    const sent = await call(h, 'POST', P('sendStepupEmailCode'), {}, { token: plain.token });
    const emailCode = await lastCode(h, plain.email);
    const verified = await call(h, 'POST', P('verifyStepupChallenge'), { totpCode: emailCode }, { token: plain.token });
    const state = await call(h, 'POST', P('getMyTwoFactor'), { grantToken: grant }, { token: u.token });
    for (const r of [sent, verified, state]) {
      expect(r.body).not.toContain(emailCode);
      expect(r.body).not.toContain(secret);
    }
    expect(state.body).not.toContain(grant);
    const logs = h.logs.join('\n');
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain(grant);
    expect(logs).not.toContain(verified.json().grantToken);
    expect(logs).not.toContain(secret.toLowerCase());
    for (const code of [totpUsed, emailCode]) expect(logs).not.toMatch(new RegExp(`(?<![\\d.])${code}(?!\\d)`));
  });
});
