import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, emailGrant, type Harness } from '../helpers/harness.js';
import { signInOnDevice } from '../helpers/devices.js';

/**
 * Someone who knows an e-mail address or @username cannot spend the owner's ability to sign
 * in. The attacker locks the login PIN and asks for as many e-mail codes as the service lets one address have; the
 * owner, from another address, still signs in with an e-mailed code the same day. Since issue #28 the owner does so
 * on a device that signed in before (its device cookie): the attacker's wrong guesses also spend the budget that
 * all unrecognised sources share (test/security/lockout-devices.test.ts).
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const attacker = '198.51.100.66';
const owner = '192.0.2.10';
/** The newest sign-in code in the mailbox (security notices land there too). */
async function signInCode(to: string): Promise<string> {
  const items = (await h.app.inject({ method: 'GET', url: `/sandbox/mailbox?to=${encodeURIComponent(to)}` })).json().items as {
    subject: string;
    text: string;
  }[];
  return /(\d{6})/.exec(items.find((m) => m.subject === 'Your sign-in code')!.text)![1];
}
const post = (url: string, data: Record<string, unknown>, remoteAddress: string, cookie?: string) =>
  h.app.inject({ method: 'POST', url, payload: { data }, remoteAddress, headers: cookie ? { cookie } : {} });

describe('lock-out resistance', () => {
  it('a stranger who locks the login PIN and asks for codes all day cannot stop the owner signing in by e-mail code', async () => {
    const u = await signInOnDevice(h, { ip: owner });
    const name = `lo_${u.id.slice(0, 8)}`;
    await call(h, 'POST', '/_serverFn/updateProfileBearerSettings', { username: name }, { token: u.token });
    await call(h, 'POST', '/_serverFn/setLoginPinBearerAuth', { pin: '371946' }, { token: u.token, headers: await emailGrant(h, u) });

    // The attacker locks the PIN ...
    for (let i = 0; i < 5; i++) await post('/_serverFn/startPinLoginPublicAuth', { identifier: `@${name}`, pin: `00000${i}` }, attacker);
    expect((await post('/_serverFn/startPinLoginPublicAuth', { identifier: `@${name}`, pin: '371946' }, owner)).json().error.code).toBe(
      'PIN_LOCKED',
    );

    // ... and asks for codes whenever the cooldown allows, until this address is refused for the day, trying to
    // burn each code with wrong guesses. Each of those codes reaches the owner, and stays usable by the owner.
    let sentByAttacker = 0;
    let ownerSignIns = 0;
    for (let i = 0; i < 40; i++) {
      const r = await post('/_serverFn/sendLoginOtpPublicAuth', { email: u.email }, attacker);
      if (r.statusCode !== 200) {
        if (r.json().error.code === 'OTP_DAILY_LIMIT') break;
        h.clock.advance(Number(r.headers['retry-after']) * 1000);
        continue;
      }
      sentByAttacker++;
      for (let g = 0; g < 6; g++) await post('/_serverFn/verifyLoginOtpPublicAuth', { email: u.email, code: `99999${g}` }, attacker);
      if (sentByAttacker % 3 === 0) {
        const signedIn = await post(
          '/_serverFn/verifyLoginOtpPublicAuth',
          { email: u.email, code: await signInCode(u.email) },
          owner,
          u.cookie,
        );
        expect(signedIn.statusCode).toBe(200);
        ownerSignIns++;
      }
    }
    expect(sentByAttacker).toBe(10);
    expect(ownerSignIns).toBe(3);

    // And the owner can ask for a code of their own within the (bounded) cooldown.
    const wait = (await call(h, 'POST', '/_serverFn/getOtpCooldownPublicAuth', { email: u.email })).json().secondsRemaining;
    expect(wait).toBeLessThanOrEqual(3600);
    h.clock.advance(wait * 1000);
    expect((await post('/_serverFn/sendLoginOtpPublicAuth', { email: u.email }, owner)).statusCode).toBe(200);
    expect(
      (await post('/_serverFn/verifyLoginOtpPublicAuth', { email: u.email, code: await signInCode(u.email) }, owner, u.cookie)).statusCode,
    ).toBe(200);
  });
});
