import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { call, createHarness, emailGrant, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { enrollTotp } from '../security/rfc6238.js';
import { FRESH_SIGN_IN_MS } from '../../src/modules/security/first-credential.js';

/**
 * Issue 29: the FIRST transaction PIN (and the first login PIN) right after the e-mailed sign-in code needs no second
 * code: a session opened by that code less than 10 minutes ago is the fresh proof. Changing a PIN, an older session,
 * a PIN-login session and an account with an authenticator still need the grant.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const setTxPin = (u: TestUser, input: Record<string, unknown>, headers?: Record<string, string>) =>
  call(h, 'POST', '/_serverFn/setTransactionPinFnBearerSettings', input, { token: u.token, headers });
const setLoginPin = (u: TestUser, pin: string, headers?: Record<string, string>) =>
  call(h, 'POST', '/_serverFn/setLoginPinBearerAuth', { pin }, { token: u.token, headers });
const refusedForStepUp = (r: { statusCode: number; json(): { error: { code: string } } }) => {
  expect(r.statusCode).toBe(403);
  expect(r.json().error.code).toBe('STEP_UP_REQUIRED');
};
const mails = async (to: string) => {
  await h.app.services.jobs.drain();
  return (await h.app.inject({ method: 'GET', url: `/sandbox/mailbox?to=${encodeURIComponent(to)}` })).json().items as { text: string }[];
};

describe('first transaction PIN after the e-mailed sign-in code', () => {
  it('is set without a second code within 10 minutes; the owner is told; changing it still needs the grant', async () => {
    const u = await signIn(h);
    const codesBefore = (await mails(u.email)).length;
    h.clock.advance(FRESH_SIGN_IN_MS - 60_000);
    const first = await setTxPin(u, { pin: '4821' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ ok: true, hasPin: true });
    await expect(h.app.services.pins.verify(u.id, 'transaction', '4821')).resolves.toBeUndefined();
    // No second code was sent; the "this wasn't me" notice was.
    const after = await mails(u.email);
    expect(after.length).toBe(codesBefore + 1);
    expect(after[0].text).toMatch(/not-me\?token=/);

    // A token thief (or anyone) with the same fresh session cannot change the PIN now that one exists.
    refusedForStepUp(await setTxPin(u, { pin: '9034', currentPin: '4821' }));
    refusedForStepUp(await setTxPin(u, { pin: '9034' }));
    await expect(h.app.services.pins.verify(u.id, 'transaction', '4821')).resolves.toBeUndefined();
    expect((await setTxPin(u, { pin: '9034', currentPin: '4821' }, await emailGrant(h, u))).statusCode).toBe(200);
  });

  it('is refused once the session is 10 minutes old (the token still valid)', async () => {
    const u = await signIn(h);
    h.clock.advance(FRESH_SIGN_IN_MS);
    refusedForStepUp(await setTxPin(u, { pin: '4821' }));
    expect(await h.app.services.pins.isSet(u.id, 'transaction')).toBe(false);
    // With a grant it goes through as before.
    expect((await setTxPin(u, { pin: '4821' }, await emailGrant(h, u))).statusCode).toBe(200);
  });

  it('is refused in a session opened with the login PIN, and on an account with an authenticator', async () => {
    const u = await signIn(h);
    const name = `fp_${u.id.slice(0, 8)}`;
    await call(h, 'POST', '/_serverFn/updateProfileBearerSettings', { username: name }, { token: u.token });
    expect((await setLoginPin(u, '605148')).statusCode).toBe(200);
    const pinLogin = await call(h, 'POST', '/_serverFn/startPinLoginPublicAuth', { identifier: `@${name}`, pin: '605148' });
    expect(pinLogin.statusCode, pinLogin.body).toBe(200);
    const viaPin = { ...u, token: pinLogin.json().session.accessToken as string };
    refusedForStepUp(await setTxPin(viaPin, { pin: '4821' }));

    const t = await signIn(h);
    await enrollTotp(h, t);
    h.clock.advance(61_000);
    const fresh = await signIn(h, t.email);
    refusedForStepUp(await setTxPin(fresh, { pin: '4821' }));
    refusedForStepUp(await setLoginPin(fresh, '605148'));
  });

  it('two parallel first PINs: one is set, the other is refused, and the PIN is the one that was answered', async () => {
    const u = await signIn(h);
    const [a, b] = await Promise.all([setTxPin(u, { pin: '1111' }), setTxPin(u, { pin: '2222' })]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 403]);
    const won = a.statusCode === 200 ? '1111' : '2222';
    await expect(h.app.services.pins.verify(u.id, 'transaction', won)).resolves.toBeUndefined();
  });
});

describe('first login PIN after the e-mailed sign-in code', () => {
  it('is set without a second code; a change, a PIN turned off earlier, or an old session needs the grant', async () => {
    const u = await signIn(h);
    expect((await setLoginPin(u, '730481')).statusCode).toBe(200);
    refusedForStepUp(await setLoginPin(u, '730482'));

    // Turned off, it is not "first" again: turning it back on is a change.
    expect(
      (await call(h, 'POST', '/_serverFn/disableLoginPinBearerAuth', {}, { token: u.token, headers: await emailGrant(h, u) })).statusCode,
    ).toBe(200);
    h.clock.advance(61_000);
    const again = await signIn(h, u.email);
    refusedForStepUp(await setLoginPin(again, '730483'));

    const old = await signIn(h);
    h.clock.advance(FRESH_SIGN_IN_MS + 1000);
    refusedForStepUp(await setLoginPin(old, '730484'));
    const rows = await h.app.services.db.execute(sql`SELECT 1 FROM user_pins WHERE user_id = ${old.id}`);
    expect((rows as unknown as { rows: unknown[] }).rows).toHaveLength(0);
  });
});
