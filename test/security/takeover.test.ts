import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { call, createHarness, emailGrant, lastCode, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { enrollTotp } from './rfc6238.js';
import { TWO_FACTOR_RESET_WAIT_MS } from '../../src/modules/security/two-factor.js';

/**
 * A stolen 15-minute access token must not become a permanent takeover. Every credential
 * change needs a recent proof beyond the token, tells the owner with a "this wasn't me" link, and the owner has a
 * way back from an authenticator someone else set up.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const P = (name: string, suffix: string) => `/_serverFn/${name}${suffix}`;
const q = async <T>(query: ReturnType<typeof sql>) => ((await h.app.services.db.execute(query)) as unknown as { rows: T[] }).rows;

async function mails(to: string) {
  await h.app.services.jobs.drain();
  return (await h.app.inject({ method: 'GET', url: `/sandbox/mailbox?to=${encodeURIComponent(to)}` })).json().items as {
    subject: string;
    text: string;
  }[];
}
const notMeLink = async (to: string) => {
  const m = (await mails(to)).find((x) => /\/api\/public\/not-me\?token=/.test(x.text));
  return /\/api\/public\/not-me\?token=(nme_[A-Za-z0-9_-]+)/.exec(m?.text ?? '')?.[1];
};

describe('a stolen access token alone', () => {
  it('changes no credential: login PIN, authenticator, transaction PIN, phone, account closure all need a grant', async () => {
    const victim = await signIn(h);
    // The victim's verified phone, set up with a grant.
    await call(h, 'POST', P('sendPhoneOtp', 'PublicAuth'), { phone: '08031110001' });
    const code = await lastCode(h, '08031110001', 'sms');
    expect(
      (await call(h, 'POST', P('verifyPhoneOtp', 'PublicAuth'), { phone: '08031110001', code }, { token: victim.token })).statusCode,
    ).toBe(200);

    // The token of a session opened more than 10 minutes ago (a fresh e-mail-code session may set a FIRST PIN:
    // test/settings/first-pin.test.ts).
    h.clock.advance(10 * 60_000);
    const stolen = { token: victim.token };
    const attempts: [string, string, Record<string, unknown>][] = [
      ['setLoginPin', 'BearerAuth', { pin: '111222' }],
      ['disableLoginPin', 'BearerAuth', {}],
      ['beginTotpEnrollment', 'Bearer2FA', {}],
      ['confirmTotpEnrollment', 'Bearer2FA', { code: '123456' }],
      ['disableTotp', 'Bearer2FA', {}],
      ['setTransactionPinFn', 'BearerSettings', { pin: '1234' }],
      ['closeAccount', 'BearerSettings', { confirm: 'DELETE' }],
      ['updateProfile', 'BearerSettings', { phone: '08031110002' }],
    ];
    for (const [name, suffix, input] of attempts) {
      const r = await call(h, 'POST', P(name, suffix), input, stolen);
      expect(r.statusCode, name).toBe(403);
      expect(r.json().error.code, name).toBe('STEP_UP_REQUIRED');
    }
    // Replacing the verified phone through a new SMS code too (the code is not spent by the refusal).
    h.clock.advance(61_000);
    await call(h, 'POST', P('sendPhoneOtp', 'PublicAuth'), { phone: '08031110003' });
    const other = await lastCode(h, '08031110003', 'sms');
    const swap = await call(h, 'POST', P('verifyPhoneOtp', 'PublicAuth'), { phone: '08031110003', code: other }, stolen);
    expect(swap.json().error.code).toBe('STEP_UP_REQUIRED');
    const profile = (await call(h, 'GET', P('getProfile', 'BearerSettings'), undefined, stolen)).json().profile;
    expect(profile).toMatchObject({ phone: '08031110001', phoneVerified: true });
    // Nothing changed.
    expect(await q(sql`SELECT 1 FROM user_pins WHERE user_id = ${victim.id}`)).toHaveLength(0);
    expect(await q(sql`SELECT 1 FROM totp_factors WHERE user_id = ${victim.id}`)).toHaveLength(0);
    // With the owner's e-mailed code the same change goes through.
    const own = await call(
      h,
      'POST',
      P('updateProfile', 'BearerSettings'),
      { phone: '08031110002' },
      { token: victim.token, headers: await emailGrant(h, victim) },
    );
    expect(own.statusCode).toBe(200);
  });
});

describe('"this wasn\'t me"', () => {
  it('every credential change e-mails a link that signs out every session, turns PIN login off and schedules removing a new authenticator', async () => {
    const u = await signIn(h);
    h.clock.advance(61_000);
    const other = await signIn(h, u.email);
    const headers = await emailGrant(h, u);
    expect((await call(h, 'POST', P('setLoginPin', 'BearerAuth'), { pin: '605148' }, { token: u.token, headers })).statusCode).toBe(200);
    const token = await notMeLink(u.email);
    expect(token).toMatch(/^nme_/);

    // The link opens a page; opening it changes nothing (mail scanners fetch links).
    const page = await h.app.inject({ method: 'GET', url: `/api/public/not-me?token=${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('method="post"');
    expect((await call(h, 'GET', P('getProfile', 'BearerSettings'), undefined, { token: other.token })).statusCode).toBe(200);

    // Its button posts the token as a form.
    const done = await h.app.inject({
      method: 'POST',
      url: '/api/public/not-me',
      payload: `token=${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(done.statusCode).toBe(200);
    for (const s of [u, other])
      expect((await call(h, 'GET', P('getProfile', 'BearerSettings'), undefined, { token: s.token })).statusCode).toBe(401);
    expect((await call(h, 'POST', P('refreshSession', 'PublicAuth'), { refreshToken: other.refreshToken })).statusCode).toBe(401);
    expect((await q<{ enabled: boolean }>(sql`SELECT enabled FROM user_pins WHERE user_id = ${u.id} AND kind = 'login'`))[0].enabled).toBe(
      false,
    );
    // Once only; junk is refused without a crash.
    const again = await h.app.inject({ method: 'POST', url: '/api/public/not-me', payload: { token } });
    expect(again.statusCode).toBe(404);
    for (const bad of [{}, { token: 5 }, { token: 'x'.repeat(300) }]) {
      expect((await h.app.inject({ method: 'POST', url: '/api/public/not-me', payload: bad })).statusCode).toBe(400);
    }
    expect(
      (await h.app.inject({ method: 'POST', url: '/api/public/not-me', payload: { token: 'nme_' + 'a'.repeat(40) } })).statusCode,
    ).toBe(404);

    // An authenticator set up by someone else: the link signs everyone out, and its removal waits (issue 28;
    // test/security/not-me-two-factor.test.ts covers the wait).
    h.clock.advance(61_000);
    const back = await signIn(h, u.email);
    h.clock.advance(61_000);
    await enrollTotp(h, back);
    const totpLink = (await mails(u.email)).find((m) => m.subject.includes('authenticator'));
    const t2 = /token=(nme_[A-Za-z0-9_-]+)/.exec(totpLink!.text)![1];
    expect((await h.app.inject({ method: 'POST', url: '/api/public/not-me', payload: { token: t2 } })).json()).toEqual({
      ok: true,
      signedOut: true,
    });
    expect(await q(sql`SELECT 1 FROM totp_factors WHERE user_id = ${u.id}`)).toHaveLength(1);
    expect(
      await q(
        sql`SELECT 1 FROM two_factor_resets WHERE user_id = ${u.id} AND origin = 'not_me' AND cancelled_at IS NULL AND completed_at IS NULL`,
      ),
    ).toHaveLength(1);
  });
});

describe('two-factor reset', () => {
  async function victimWithIntrudersAuthenticator(): Promise<TestUser> {
    const u = await signIn(h);
    await enrollTotp(h, u);
    return u;
  }

  it('the owner resets with an e-mailed code after a 72-hour wait, told at once and when done; cancellable', async () => {
    const u = await victimWithIntrudersAuthenticator();
    // The e-mail-opened session cannot get a grant from an e-mailed code while an authenticator is on ...
    h.clock.advance(61_000);
    expect((await call(h, 'POST', P('sendStepupEmailCode', 'Bearer2FA'), {}, { token: u.token })).statusCode).toBe(200);
    const code = await lastCode(h, u.email);
    expect((await call(h, 'POST', P('verifyStepupChallenge', 'Bearer2FA'), { totpCode: code }, { token: u.token })).statusCode).toBe(400);
    // ... but can ask for the reset with it.
    h.clock.advance(61_000);
    await call(h, 'POST', P('sendStepupEmailCode', 'Bearer2FA'), {}, { token: u.token });
    const asked = await call(h, 'POST', P('requestTwoFactorReset', 'Bearer2FA'), { code: await lastCode(h, u.email) }, { token: u.token });
    expect(asked.statusCode).toBe(200);
    expect(new Date(asked.json().resetAt).getTime() - h.clock.now().getTime()).toBe(TWO_FACTOR_RESET_WAIT_MS);
    expect((await mails(u.email)).some((m) => m.subject.includes('two-factor reset requested'))).toBe(true);

    h.clock.advance(TWO_FACTOR_RESET_WAIT_MS - 60_000);
    const fresh = await signIn(h, u.email);
    expect((await call(h, 'POST', P('getMyTwoFactor', 'Bearer2FA'), {}, { token: fresh.token })).json().confirmed).toBe(true);
    h.clock.advance(60_000);
    expect((await call(h, 'POST', P('getMyTwoFactor', 'Bearer2FA'), {}, { token: fresh.token })).json()).toMatchObject({
      enrolled: false,
      confirmed: false,
    });
    expect((await mails(u.email)).some((m) => m.subject.includes('Two-factor authentication was reset'))).toBe(true);
    // Now an e-mailed code gives a grant again and the owner can set up their own authenticator.
    h.clock.advance(61_000);
    await enrollTotp(h, fresh);

    // A reset can be cancelled, with an e-mailed code too.
    h.clock.advance(61_000);
    await call(h, 'POST', P('sendStepupEmailCode', 'Bearer2FA'), {}, { token: fresh.token });
    expect(
      (await call(h, 'POST', P('requestTwoFactorReset', 'Bearer2FA'), { code: await lastCode(h, u.email) }, { token: fresh.token }))
        .statusCode,
    ).toBe(200);
    h.clock.advance(61_000);
    await call(h, 'POST', P('sendStepupEmailCode', 'Bearer2FA'), {}, { token: fresh.token });
    expect(
      (await call(h, 'POST', P('cancelTwoFactorReset', 'Bearer2FA'), { code: await lastCode(h, u.email) }, { token: fresh.token })).json(),
    ).toEqual({ ok: true, cancelled: true });
    h.clock.advance(TWO_FACTOR_RESET_WAIT_MS);
    const later = await signIn(h, u.email);
    expect((await call(h, 'POST', P('getMyTwoFactor', 'Bearer2FA'), {}, { token: later.token })).json().confirmed).toBe(true);
    // Wrong codes do not reset anything.
    expect((await call(h, 'POST', P('requestTwoFactorReset', 'Bearer2FA'), { code: '000000' }, { token: later.token })).statusCode).toBe(
      400,
    );
  });

  it('an operator resets with a reason, audited; a customer cannot', async () => {
    const u = await victimWithIntrudersAuthenticator();
    const admin = await signIn(h, 'admin@example.com');
    const input = { userId: u.id, reason: 'Owner lost phone; identity checked on a video call' };
    expect((await call(h, 'POST', P('adminResetTwoFactor', 'BearerAdmin'), input, { token: u.token })).statusCode).toBe(403);
    expect(
      (await call(h, 'POST', P('adminResetTwoFactor', 'BearerAdmin'), { userId: u.id, reason: '' }, { token: admin.token })).statusCode,
    ).toBe(400);
    const ok = await call(h, 'POST', P('adminResetTwoFactor', 'BearerAdmin'), input, { token: admin.token });
    expect(ok.json()).toEqual({ ok: true, reset: true });
    // The registry's row of the call (http/admin-audit.ts), the one row it leaves.
    const audit = await q<{ actor_id: string; input: { reason: string } }>(
      sql`SELECT actor_id, input FROM audit_log WHERE action = 'adminResetTwoFactor' AND subject_id = ${u.id} AND outcome = 'ok'`,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: admin.id, input: { reason: input.reason } });
    expect((await mails(u.email)).some((m) => m.subject.includes('Two-factor authentication was reset'))).toBe(true);
    expect((await call(h, 'POST', P('adminResetTwoFactor', 'BearerAdmin'), input, { token: admin.token })).statusCode).toBe(404);
  });
});
