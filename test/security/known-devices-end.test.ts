import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { OTP_MAX_ATTEMPTS } from '../../src/modules/identity/otp.js';
import { call, createHarness, emailGrant, type Harness } from '../helpers/harness.js';
import { SEND, VERIFY, deviceCookieOf, postFrom, signInCode, signInOnDevice } from '../helpers/devices.js';

/**
 * Issue #28: which events end an account's known devices (the vtu_device cookie's own attempt budget).
 * "This wasn't me" and account closure end them all (the intruder's browser signed in too); a plain sign-out of one
 * session keeps the device known. A device is checked from the outside: once unrecognised sources have spent the
 * account's shared budget for a code, only a known device still signs in with it.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const P = (name: string, suffix: string) => `/_serverFn/${name}${suffix}`;
const wrong = (code: string, i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
const errorOf = (r: { json(): { error?: { code: string } } }) => r.json().error?.code ?? 'OK';

async function knownDevices(userId: string): Promise<number> {
  return (await rows(h.app.services.db, sql`SELECT 1 FROM known_devices WHERE user_id = ${userId}`)).length;
}

/** A new login code asked for from `ip`, then every unrecognised source's budget for it spent from two addresses. */
async function codeWithStrangersSpent(email: string, ip: string, attackers: [string, string]): Promise<string> {
  const wait = (await call(h, 'POST', P('getOtpCooldown', 'PublicAuth'), { email })).json().secondsRemaining as number;
  h.clock.advance(wait * 1000);
  expect((await postFrom(h, SEND, { email }, { ip })).statusCode).toBe(200);
  const code = await signInCode(h, email);
  for (const a of attackers) {
    for (let i = 0; i < OTP_MAX_ATTEMPTS; i++) await postFrom(h, VERIFY, { email, code: wrong(code, i) }, { ip: a });
  }
  expect(errorOf(await postFrom(h, VERIFY, { email, code }, { ip: '203.0.113.50' }))).toBe('RATE_LIMITED');
  return code;
}

async function notMeToken(to: string): Promise<string> {
  await h.app.services.jobs.drain();
  const items = (await h.app.inject({ method: 'GET', url: `/sandbox/mailbox?to=${encodeURIComponent(to)}` })).json().items as {
    text: string;
  }[];
  const found = items.map((m) => /\/api\/public\/not-me\?token=(nme_[A-Za-z0-9_-]+)/.exec(m.text)?.[1]).find(Boolean);
  if (!found) throw new Error('no not-me link was mailed');
  return found;
}

describe('the end of known devices (issue #28)', () => {
  it('"this wasn\'t me" ends every known device: the intruder\'s browser has no budget of its own afterwards', async () => {
    const owner = await signInOnDevice(h, { ip: '192.0.2.60' });
    // Whoever reads the mailbox signs in on its own browser (a known device from then on) and changes a credential.
    const wait = (await call(h, 'POST', P('getOtpCooldown', 'PublicAuth'), { email: owner.email })).json().secondsRemaining as number;
    h.clock.advance(wait * 1000);
    const intruder = await signInOnDevice(h, { email: owner.email, ip: '198.51.100.60' });
    expect(intruder.cookie).not.toBe(owner.cookie);
    expect(await knownDevices(owner.id)).toBe(2);
    const grant = await emailGrant(h, intruder);
    expect(
      (await call(h, 'POST', P('setLoginPin', 'BearerAuth'), { pin: '480213' }, { token: intruder.token, headers: grant })).statusCode,
    ).toBe(200);

    expect(
      (await h.app.inject({ method: 'POST', url: '/api/public/not-me', payload: { token: await notMeToken(owner.email) } })).statusCode,
    ).toBe(200);
    expect(await knownDevices(owner.id)).toBe(0);

    // The intruder's cookie is now one more unrecognised source: refused with the right code once strangers spent the budget.
    const code = await codeWithStrangersSpent(owner.email, '198.51.100.61', ['198.51.100.62', '198.51.100.63']);
    const byIntruder = await postFrom(h, VERIFY, { email: owner.email, code }, { ip: '198.51.100.60', cookie: intruder.cookie });
    expect(byIntruder.statusCode).toBe(429);
    expect(errorOf(byIntruder)).toBe('RATE_LIMITED');

    // The owner signs in again once the lock ends, from a fresh code, and the browser is known again (a new token).
    h.clock.advance(24 * 60 * 60_000);
    const again = await signInOnDevice(h, { email: owner.email, ip: '192.0.2.60', cookie: owner.cookie });
    expect(again.cookie).not.toBe(owner.cookie);
    expect(await knownDevices(owner.id)).toBe(1);
  });

  it('a plain sign-out keeps the device known: it still signs in once strangers spent the budget', async () => {
    const owner = await signInOnDevice(h, { ip: '192.0.2.61' });
    expect((await call(h, 'POST', P('signOut', 'BearerAuth'), {}, { token: owner.token })).statusCode).toBe(200);
    expect(await knownDevices(owner.id)).toBe(1);
    const code = await codeWithStrangersSpent(owner.email, '198.51.100.64', ['198.51.100.65', '198.51.100.66']);
    const byOwner = await postFrom(h, VERIFY, { email: owner.email, code }, { ip: '192.0.2.61', cookie: owner.cookie });
    expect(byOwner.statusCode).toBe(200);
    expect(deviceCookieOf(byOwner)).toBe(owner.cookie);
  });

  it('account closure ends every known device of the account, and only of that account', async () => {
    const owner = await signInOnDevice(h, { ip: '192.0.2.62' });
    const other = await signInOnDevice(h, { ip: '192.0.2.63' });
    const grant = await emailGrant(h, owner);
    const closed = await call(
      h,
      'POST',
      P('closeAccount', 'BearerSettings'),
      { confirm: 'DELETE' },
      { token: owner.token, headers: grant },
    );
    expect(closed.statusCode).toBe(200);
    expect(await knownDevices(owner.id)).toBe(0);
    expect(await knownDevices(other.id)).toBe(1);
  });
});
