import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, emailGrant, lastCode, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { createSoftAuthenticator, type SoftAuthenticator, type Spoil } from '../helpers/webauthn.js';
import { sql } from 'drizzle-orm';
import { HOUR, MINUTE } from '../../src/kernel/clock.js';
import { one } from '../../src/db/client.js';

// Issue 30: operators need a second factor (OPERATOR_2FA=required), and a passkey is one; it confirms step-up like
// an authenticator code. The passkey here is a software authenticator (test/helpers/webauthn.ts).
let h: Harness;
let admin: TestUser;
let customer: TestUser;
let key: SoftAuthenticator;

const admin2 = (op: string) => `/_serverFn/${op}BearerAdmin`;

async function stepUpOptions(user: TestUser) {
  const res = await call(h, 'POST', admin2('adminPasskeyStepupOptions'), {}, { token: user.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().options as { challenge: string; allowCredentials: { id: string }[] };
}

async function stepUpWith(user: TestUser, spoil: Spoil = {}) {
  const options = await stepUpOptions(user);
  const assertion = key.assert(options, spoil);
  return call(h, 'POST', '/_serverFn/verifyStepupChallengeBearer2FA', { method: 'passkey', assertion }, { token: user.token });
}

beforeAll(async () => {
  h = await createHarness({ env: { OPERATOR_2FA: 'required', ADMIN_EMAILS: 'admin@example.com,boss@example.com' } });
  admin = await signIn(h, 'admin@example.com');
  customer = await signIn(h);
  key = createSoftAuthenticator({ origin: h.config.webauthn.origin, rpId: h.config.webauthn.rpId });
});
afterAll(async () => h.close());

describe('OPERATOR_2FA=required', () => {
  it('refuses every admin operation but the enrolment ones to an operator without a second factor', async () => {
    const res = await call(h, 'GET', admin2('adminListOperatorSessions'), {}, { token: admin.token });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('OPERATOR_2FA_REQUIRED');
    const list = await call(h, 'GET', admin2('adminListPasskeys'), {}, { token: admin.token });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items).toEqual([]);
    // A customer is still refused as a customer.
    const c = await call(h, 'GET', admin2('adminListPasskeys'), {}, { token: customer.token });
    expect(c.json().error.code).toBe('FORBIDDEN');
  });

  it('registers a passkey only with a step-up grant and a response to its own challenge', async () => {
    const noGrant = await call(h, 'POST', admin2('adminPasskeyRegisterOptions'), {}, { token: admin.token });
    expect(noGrant.json().error.code).toBe('STEP_UP_REQUIRED');
    const grant = await emailGrant(h, admin);
    const opts = await call(h, 'POST', admin2('adminPasskeyRegisterOptions'), {}, { token: admin.token, headers: grant });
    expect(opts.statusCode, opts.body).toBe(200);
    const options = opts.json().options;
    expect(options.rp.id).toBe(h.config.webauthn.rpId);
    // From another origin: refused (an admin call's effects roll back on a refusal, so the challenge stays usable
    // until it expires, bound to this session).
    const foreign = key.register(options, { origin: 'https://evil.example.com' });
    const bad = await call(h, 'POST', admin2('adminPasskeyRegister'), { response: foreign }, { token: admin.token, headers: grant });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('PASSKEY_INVALID');
    const wrongRp = await call(
      h,
      'POST',
      admin2('adminPasskeyRegister'),
      { response: key.register(options, { rpId: 'evil.example.com' }) },
      { token: admin.token, headers: grant },
    );
    expect(wrongRp.json().error.code).toBe('PASSKEY_INVALID');
    const ok = await call(
      h,
      'POST',
      admin2('adminPasskeyRegister'),
      { response: key.register(options), name: 'Laptop' },
      { token: admin.token, headers: grant },
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().name).toBe('Laptop');
    // A registered challenge is spent.
    const other = createSoftAuthenticator({ origin: h.config.webauthn.origin, rpId: h.config.webauthn.rpId });
    const again = await call(
      h,
      'POST',
      admin2('adminPasskeyRegister'),
      { response: other.register(options) },
      { token: admin.token, headers: grant },
    );
    expect(again.json().error.code).toBe('PASSKEY_INVALID');
    const list = (await call(h, 'GET', admin2('adminListPasskeys'), {}, { token: admin.token })).json().items;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ name: 'Laptop', transports: ['internal'], lastUsedAt: null });
    // With a passkey the operator runs admin operations.
    const sessions = await call(h, 'GET', admin2('adminListOperatorSessions'), {}, { token: admin.token });
    expect(sessions.statusCode, sessions.body).toBe(200);
  });

  it('a registration whose challenge expired is refused', async () => {
    const grant = await emailGrant(h, customer).catch(() => null);
    expect(grant).not.toBeNull(); // customers get grants, but not the operation:
    const c = await call(h, 'POST', admin2('adminPasskeyRegisterOptions'), {}, { token: customer.token, headers: grant! });
    expect(c.json().error.code).toBe('FORBIDDEN');
    const other = createSoftAuthenticator({ origin: h.config.webauthn.origin, rpId: h.config.webauthn.rpId });
    const adminGrant = await passkeyGrant();
    const options = (await call(h, 'POST', admin2('adminPasskeyRegisterOptions'), {}, { token: admin.token, headers: adminGrant })).json()
      .options;
    h.clock.advance(6 * MINUTE);
    const late = await call(
      h,
      'POST',
      admin2('adminPasskeyRegister'),
      { response: other.register(options) },
      { token: admin.token, headers: adminGrant },
    );
    expect(late.json().error.code).toBe('PASSKEY_INVALID');
    expect(late.json().error.message).toMatch(/expired/);
  });
});

async function passkeyGrant(): Promise<Record<string, string>> {
  const res = await stepUpWith(admin);
  expect(res.statusCode, res.body).toBe(200);
  return { 'x-grant-token': res.json().grantToken };
}

describe('passkey step-up', () => {
  it('offers passkey (not e-mail) in a session opened with an e-mailed code, and a verified passkey yields a grant', async () => {
    const state = await call(h, 'POST', '/_serverFn/getMyTwoFactorBearer2FA', {}, { token: admin.token });
    expect(state.json().stepUpMethods).toEqual(['passkey']);
    const options = await stepUpOptions(admin);
    expect(options.allowCredentials.map((c) => c.id)).toEqual([key.credentialId]);
    const res = await call(
      h,
      'POST',
      '/_serverFn/verifyStepupChallengeBearer2FA',
      { method: 'passkey', assertion: key.assert(options) },
      { token: admin.token },
    );
    expect(res.statusCode, res.body).toBe(200);
    const after = await call(
      h,
      'POST',
      '/_serverFn/getMyTwoFactorBearer2FA',
      { grantToken: res.json().grantToken },
      { token: admin.token },
    );
    expect(after.json().grantValid).toBe(true);
    const list = (await call(h, 'GET', admin2('adminListPasskeys'), {}, { token: admin.token })).json().items;
    expect(list[0].lastUsedAt).not.toBeNull();
  });

  it('an e-mailed code no longer confirms this session', async () => {
    await call(h, 'POST', '/_serverFn/sendStepupEmailCodeBearer2FA', {}, { token: admin.token });
    const code = await lastCode(h, admin.email);
    const res = await call(h, 'POST', '/_serverFn/verifyStepupChallengeBearer2FA', { totpCode: code }, { token: admin.token });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('OTP_INVALID');
  });

  it('refuses a wrong signature, a replayed counter, a wrong origin, a replayed assertion and an expired challenge', async () => {
    const wrongSig = await stepUpWith(admin, { badSignature: true });
    expect(wrongSig.json().error.code).toBe('PASSKEY_INVALID');

    expect((await stepUpWith(admin)).statusCode).toBe(200);
    // The same counter as the last accepted assertion: a replay or a cloned authenticator.
    const replayedCounter = await stepUpWith(admin, { counter: key.counter });
    expect(replayedCounter.json().error.code).toBe('PASSKEY_INVALID');
    expect(replayedCounter.json().error.message).toMatch(/counter/i);

    const wrongOrigin = await stepUpWith(admin, { origin: 'https://phish.example.com' });
    expect(wrongOrigin.json().error.code).toBe('PASSKEY_INVALID');

    const options = await stepUpOptions(admin);
    const assertion = key.assert(options);
    const first = await call(
      h,
      'POST',
      '/_serverFn/verifyStepupChallengeBearer2FA',
      { method: 'passkey', assertion },
      { token: admin.token },
    );
    expect(first.statusCode, first.body).toBe(200);
    const replay = await call(
      h,
      'POST',
      '/_serverFn/verifyStepupChallengeBearer2FA',
      { method: 'passkey', assertion },
      { token: admin.token },
    );
    expect(replay.json().error.code).toBe('PASSKEY_INVALID');

    const old = await stepUpOptions(admin);
    h.clock.advance(6 * MINUTE);
    const late = await call(
      h,
      'POST',
      '/_serverFn/verifyStepupChallengeBearer2FA',
      { method: 'passkey', assertion: key.assert(old) },
      { token: admin.token },
    );
    expect(late.json().error.code).toBe('PASSKEY_INVALID');
    expect(late.json().error.message).toMatch(/expired/);
    // Every refusal above is a 400, and the passkey still works.
    expect((await stepUpWith(admin)).statusCode).toBe(200);
  });

  it("another operator's session cannot use this operator's challenge", async () => {
    const options = await stepUpOptions(admin);
    const other = await signIn(h, 'admin@example.com');
    const res = await call(
      h,
      'POST',
      '/_serverFn/verifyStepupChallengeBearer2FA',
      { method: 'passkey', assertion: key.assert(options) },
      { token: other.token },
    );
    expect(res.json().error.code).toBe('PASSKEY_INVALID');
  });

  it('asks for totpCode or an assertion, not both', async () => {
    for (const data of [{}, { method: 'passkey' }, { totpCode: '123456', method: 'passkey', assertion: key.assert({ challenge: 'x' }) }]) {
      const res = await call(h, 'POST', '/_serverFn/verifyStepupChallengeBearer2FA', data, { token: admin.token });
      expect(res.statusCode, JSON.stringify(data)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('deleting the last passkey (with a grant) takes the operator back to OPERATOR_2FA_REQUIRED', async () => {
    const id = (await call(h, 'GET', admin2('adminListPasskeys'), {}, { token: admin.token })).json().items[0].id;
    const noGrant = await call(h, 'POST', admin2('adminDeletePasskey'), { id }, { token: admin.token });
    expect(noGrant.json().error.code).toBe('STEP_UP_REQUIRED');
    const grant = await passkeyGrant();
    const del = await call(h, 'POST', admin2('adminDeletePasskey'), { id }, { token: admin.token, headers: grant });
    expect(del.statusCode, del.body).toBe(200);
    await h.app.services.jobs.drain();
    const box = (await h.app.inject({ method: 'GET', url: `/sandbox/mailbox?to=${encodeURIComponent(admin.email)}` })).json().items;
    expect(box.some((m: { subject: string; text: string }) => m.subject.includes('A passkey was removed'))).toBe(true);
    const missing = await call(h, 'POST', admin2('adminDeletePasskey'), { id }, { token: admin.token, headers: grant });
    expect(missing.statusCode).toBe(403); // no factor left: refused before it looks
    expect(missing.json().error.code).toBe('OPERATOR_2FA_REQUIRED');
  });

  it('an admin removes the passkeys of an operator who lost them (adminResetTwoFactor)', async () => {
    await registerPasskey(admin, createSoftAuthenticator({ origin: h.config.webauthn.origin, rpId: h.config.webauthn.rpId }));
    expect((await call(h, 'GET', admin2('adminListOperatorSessions'), {}, { token: admin.token })).statusCode).toBe(200);
    const boss = await signIn(h, 'boss@example.com');
    const bossKey = createSoftAuthenticator({ origin: h.config.webauthn.origin, rpId: h.config.webauthn.rpId });
    await registerPasskey(boss, bossKey);
    // Another operator's passkey is not found, even for an admin with a grant.
    const adminKeyId = (await call(h, 'GET', admin2('adminListPasskeys'), {}, { token: admin.token })).json().items[0].id;
    const options = (await call(h, 'POST', admin2('adminPasskeyStepupOptions'), {}, { token: boss.token })).json().options;
    const g = await call(
      h,
      'POST',
      '/_serverFn/verifyStepupChallengeBearer2FA',
      { method: 'passkey', assertion: bossKey.assert(options) },
      { token: boss.token },
    );
    expect(g.statusCode, g.body).toBe(200);
    const foreign = await call(
      h,
      'POST',
      admin2('adminDeletePasskey'),
      { id: adminKeyId },
      { token: boss.token, headers: { 'x-grant-token': g.json().grantToken } },
    );
    expect(foreign.statusCode).toBe(404);
    // A passkey assertion of one operator does not confirm another's step-up.
    const mine = (await call(h, 'POST', admin2('adminPasskeyStepupOptions'), {}, { token: admin.token })).json().options;
    const crossed = await call(
      h,
      'POST',
      '/_serverFn/verifyStepupChallengeBearer2FA',
      { method: 'passkey', assertion: bossKey.assert(mine) },
      { token: admin.token },
    );
    expect(crossed.json().error.code).toBe('PASSKEY_INVALID');
    const reset = await call(
      h,
      'POST',
      admin2('adminResetTwoFactor'),
      { userId: admin.id, reason: 'lost laptop; identity checked by video call' },
      // Issue 41: resetting another operator's second factor changes authority, so it needs the resetter's step-up.
      { token: boss.token, headers: { 'x-grant-token': g.json().grantToken } },
    );
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await call(h, 'GET', admin2('adminListPasskeys'), {}, { token: admin.token })).json().items).toEqual([]);
    expect((await call(h, 'GET', admin2('adminListOperatorSessions'), {}, { token: admin.token })).json().error.code).toBe(
      'OPERATOR_2FA_REQUIRED',
    );
  });
});

describe('clean-up', () => {
  it('challenges nobody answered are deleted by the security clean-up job', async () => {
    h.clock.advance(61_000); // one e-mailed code a minute
    const grant = await emailGrant(h, admin);
    const options = (await call(h, 'POST', admin2('adminPasskeyRegisterOptions'), {}, { token: admin.token, headers: grant })).json()
      .options;
    const left = () => one(h.app.services.db, sql`SELECT 1 FROM webauthn_challenges WHERE challenge = ${options.challenge}`);
    expect(await left()).toBeTruthy();
    h.clock.advance(2 * HOUR);
    await h.app.services.jobs.tickCrons();
    await h.app.services.jobs.drain();
    expect(await left()).toBeUndefined();
  });
});

/** Registers a passkey for an operator without one, through the real flow (an e-mailed grant first). */
async function registerPasskey(user: TestUser, authenticator: SoftAuthenticator) {
  const grant = await emailGrant(h, user);
  const options = (await call(h, 'POST', admin2('adminPasskeyRegisterOptions'), {}, { token: user.token, headers: grant })).json().options;
  const res = await call(
    h,
    'POST',
    admin2('adminPasskeyRegister'),
    { response: authenticator.register(options) },
    { token: user.token, headers: grant },
  );
  expect(res.statusCode, res.body).toBe(200);
}

describe('notices', () => {
  it('adding and removing a passkey e-mails the owner; "this wasn\'t me" removes the passkey it reported and signs out', async () => {
    h.clock.advance(61_000);
    const me = await signIn(h, 'admin@example.com');
    h.clock.advance(61_000);
    const fresh = createSoftAuthenticator({ origin: h.config.webauthn.origin, rpId: h.config.webauthn.rpId });
    await registerPasskey(me, fresh);
    await h.app.services.jobs.drain();
    const box = (await h.app.inject({ method: 'GET', url: `/sandbox/mailbox?to=${encodeURIComponent(me.email)}` })).json().items as {
      subject: string;
      text: string;
    }[];
    const added = box.find((m) => m.subject.includes('A passkey was added'));
    expect(added?.text).toMatch(/\/api\/public\/not-me\?token=nme_/);
    const token = /\/api\/public\/not-me\?token=(nme_[A-Za-z0-9_-]+)/.exec(added!.text)![1];
    const done = await h.app.inject({ method: 'POST', url: '/api/public/not-me', payload: { token } });
    expect(done.statusCode, done.body).toBe(200);
    const left = await one(h.app.services.db, sql`SELECT count(*)::int AS n FROM passkeys WHERE user_id = ${me.id}`);
    expect(left).toEqual({ n: 0 });
    expect((await call(h, 'GET', admin2('adminListPasskeys'), {}, { token: me.token })).statusCode).toBe(401);
  });
});
