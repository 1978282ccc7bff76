import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { sha256 } from '../../src/lib/crypto.js';
import { OTP_MAX_ATTEMPTS } from '../../src/modules/identity/otp.js';
import { PIN_MAX_ATTEMPTS } from '../../src/modules/identity/pins.js';
import { call, createHarness, emailGrant, type Harness } from '../helpers/harness.js';
import { PIN_LOGIN, SEND, VERIFY, deviceCookieOf, signInCode } from '../helpers/devices.js';

/**
 * Issue 41: a device cookie's privilege holds only for the client it was issued to. The owner signs in on a phone; a
 * thief replays the phone's `vtu_device` cookie from another address with another browser. The thief's wrong PINs and
 * codes spend the budget all unrecognised sources share, never the phone's own: the phone keeps signing in with its
 * login PIN and the right e-mailed code. A phone on the move (same browser, new address), a browser update and a
 * browser asking for the desktop site at home (new User-Agent, same address) are still the phone.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const PIN = '582913';
const PHONE = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.122 Mobile Safari/537.36';
const PHONE_UPDATED = PHONE.replace('Chrome/126.0.6478.122', 'Chrome/127.0.6533.64');
const PHONE_DESKTOP_SITE = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const THIEF = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0';
const wrong = (code: string, i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
const errorOf = (r: { json(): { error?: { code: string } } }) => r.json().error?.code ?? 'OK';

type From = { ip: string; ua: string; cookie?: string };
const post = (url: string, data: Record<string, unknown>, from: From) =>
  h.app.inject({
    method: 'POST',
    url,
    payload: { data },
    remoteAddress: from.ip,
    headers: { 'user-agent': from.ua, ...(from.cookie ? { cookie: from.cookie } : {}) },
  });

/** A newest login code for the owner, asked for from `ip` once the send cooldown allows. */
async function freshCode(email: string, ip: string): Promise<string> {
  const wait = (await call(h, 'POST', '/_serverFn/getOtpCooldownPublicAuth', { email })).json().secondsRemaining as number;
  h.clock.advance(wait * 1000);
  expect((await post(SEND, { email }, { ip, ua: THIEF })).statusCode).toBe(200);
  return signInCode(h, email);
}

/** The owner signs in on the phone at `ip` (its device cookie) and sets a username and a login PIN. */
async function ownerOnPhone(ip: string) {
  const email = `db${randomUUID().slice(0, 8)}@example.com`;
  const res = await post(VERIFY, { email, code: await freshCode(email, ip) }, { ip, ua: PHONE });
  expect(res.statusCode).toBe(200);
  const cookie = deviceCookieOf(res)!;
  const session = res.json().session;
  const user = { id: session.user.id as string, email, token: session.accessToken as string, refreshToken: '', sessionId: '' };
  const name = `db_${user.id.slice(0, 8)}`;
  expect((await call(h, 'POST', '/_serverFn/updateProfileBearerSettings', { username: name }, { token: user.token })).statusCode).toBe(200);
  const headers = await emailGrant(h, user);
  expect((await call(h, 'POST', '/_serverFn/setLoginPinBearerAuth', { pin: PIN }, { token: user.token, headers })).statusCode).toBe(200);
  return { ...user, cookie, identifier: `@${name}` };
}

describe('a device cookie holds only for the client it was issued to (issue 41)', () => {
  it("a thief replaying the phone's cookie elsewhere spends the shared budget; the phone keeps signing in", async () => {
    const home = '192.0.2.60';
    const owner = await ownerOnPhone(home);
    const phone: From = { ip: home, ua: PHONE, cookie: owner.cookie };
    const thief: From = { ip: '198.51.100.60', ua: THIEF, cookie: owner.cookie };

    // Wrong PINs with the stolen cookie lock PIN login for every unrecognised source ...
    for (let i = 0; i < PIN_MAX_ATTEMPTS; i++) await post(PIN_LOGIN, { identifier: owner.identifier, pin: `00000${i}` }, thief);
    expect(errorOf(await post(PIN_LOGIN, { identifier: owner.identifier, pin: PIN }, thief))).toBe('PIN_LOCKED');
    expect(errorOf(await post(PIN_LOGIN, { identifier: owner.identifier, pin: PIN }, { ip: '203.0.113.61', ua: PHONE }))).toBe(
      'PIN_LOCKED',
    );
    // ... not for the phone, at home or on the move.
    const byPin = await post(PIN_LOGIN, { identifier: owner.identifier, pin: PIN }, phone);
    expect(byPin.statusCode).toBe(200);
    expect(deviceCookieOf(byPin)).toBe(owner.cookie);
    expect((await post(PIN_LOGIN, { identifier: owner.identifier, pin: PIN }, { ...phone, ip: '203.0.113.62' })).statusCode).toBe(200);

    // Wrong codes with the stolen cookie count among the unrecognised sources' 10 per code: with five more from a
    // stranger the code answers no unrecognised source, the thief with the right code included ...
    const code = await freshCode(owner.email, '203.0.113.63');
    for (let i = 0; i < OTP_MAX_ATTEMPTS; i++) {
      expect(errorOf(await post(VERIFY, { email: owner.email, code: wrong(code, i) }, thief))).toBe('OTP_INVALID');
    }
    for (let i = 0; i < OTP_MAX_ATTEMPTS; i++) {
      await post(VERIFY, { email: owner.email, code: wrong(code, 10 + i) }, { ip: '203.0.113.64', ua: THIEF });
    }
    expect((await post(VERIFY, { email: owner.email, code }, { ...thief, ip: '198.51.100.65' })).statusCode).not.toBe(200);
    expect((await post(VERIFY, { email: owner.email, code }, { ip: '203.0.113.66', ua: PHONE })).statusCode).not.toBe(200);
    // ... while the phone signs in with it.
    const byCode = await post(VERIFY, { email: owner.email, code }, phone);
    expect(byCode.statusCode).toBe(200);
    expect(byCode.json().session.user.id).toBe(owner.id);
    expect(deviceCookieOf(byCode)).toBe(owner.cookie);
  });

  it('the same browser after an update or on another network, or another User-Agent at home, is still the device', async () => {
    const home = '192.0.2.70';
    const owner = await ownerOnPhone(home);
    // Lock the shared PIN budget from elsewhere: only the device signs in with the PIN now.
    for (let i = 0; i < PIN_MAX_ATTEMPTS; i++) {
      await post(PIN_LOGIN, { identifier: owner.identifier, pin: `10000${i}` }, { ip: '198.51.100.70', ua: THIEF });
    }
    const signIn = (from: From) => post(PIN_LOGIN, { identifier: owner.identifier, pin: PIN }, { ...from, cookie: owner.cookie });
    expect((await signIn({ ip: '203.0.113.71', ua: PHONE_UPDATED })).statusCode).toBe(200);
    expect((await signIn({ ip: '203.0.113.71', ua: PHONE_DESKTOP_SITE })).statusCode).toBe(200);
    // Its last sign-in bound it to 203.0.113.71 and the desktop-site User-Agent; the first home address with the
    // thief's browser is another address and another client.
    expect(errorOf(await signIn({ ip: home, ua: THIEF }))).toBe('PIN_LOCKED');
  });

  it("a sign-in from another client with the phone's cookie gets a token of its own; the phone's stays bound to the phone", async () => {
    const home = '192.0.2.80';
    const owner = await ownerOnPhone(home);
    const token = owner.cookie.slice('vtu_device='.length);
    const binding = () =>
      rows<{ address_key: string; client_hash: string }>(
        h.app.services.db,
        sql`SELECT address_key, client_hash FROM known_devices WHERE token_hash = ${sha256(token)}`,
      );
    const before = await binding();
    expect(before).toEqual([{ address_key: home, client_hash: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    const elsewhere: From = { ip: '198.51.100.80', ua: THIEF, cookie: owner.cookie };
    const res = await post(VERIFY, { email: owner.email, code: await freshCode(owner.email, elsewhere.ip) }, elsewhere);
    expect(res.statusCode).toBe(200);
    const cookie = deviceCookieOf(res)!;
    expect(cookie.startsWith(`vtu_device=${token}`)).toBe(false);
    expect(cookie.endsWith(`.${token}`)).toBe(true);
    expect(await binding()).toEqual(before);
  });
});
