import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, emailGrant, type Harness } from '../helpers/harness.js';
import { buyer, PIN, user, walletBalance } from '../helpers/factories.js';

// Issue 29: a wrong PIN says how many tries are left, a locked PIN when the lock ends (error.details), and the
// lockout itself is unchanged: five wrong tries lock for 15 minutes.
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
}, 180_000);
afterAll(async () => h?.close());

const S = (name: string, suffix: string) => `/_serverFn/${name}${suffix}`;

describe('PIN refusals carry tries left and the end of the lock', () => {
  it('transaction PIN: 4, 3, 2, 1 tries left, then locked until a stated time; nothing is charged', async () => {
    const u = await buyer(h, 5_000);
    const buy = (pin: string) =>
      call(h, 'POST', S('buyAirtime', 'BearerVTU'), { network: 'mtn', phone: '08031234567', amount: 100, pin }, { token: u.token });
    for (const left of [4, 3, 2, 1]) {
      const res = await buy('9999');
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({
        code: 'INVALID_PIN',
        message: `The transaction PIN is wrong; ${left} ${left === 1 ? 'try' : 'tries'} left before it locks`,
        details: { triesLeft: left },
      });
    }
    const lockedAt = h.clock.now();
    const fifth = await buy('9999');
    expect(fifth.statusCode).toBe(429);
    const until = new Date(lockedAt.getTime() + 15 * 60_000).toISOString();
    expect(fifth.json().error).toMatchObject({ code: 'PIN_LOCKED', details: { triesLeft: 0, lockedUntil: until } });
    expect(fifth.headers['retry-after']).toBe('900');
    // The right PIN during the lock: still locked, same end.
    h.clock.advance(60_000);
    const during = await buy(PIN);
    expect(during.statusCode).toBe(429);
    expect(during.json().error.details).toEqual({ triesLeft: 0, lockedUntil: until });
    expect(await walletBalance(h, u.id)).toBe(5_000);
    // After the lock (and a refreshed session: access tokens live 15 minutes too) the right PIN works and the
    // count starts again.
    h.clock.advance(15 * 60_000);
    const refreshed = await call(h, 'POST', S('refreshSession', 'PublicAuth'), { refreshToken: u.refreshToken });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    u.token = refreshed.json().session.accessToken;
    expect((await buy(PIN)).statusCode).toBe(200);
    expect((await buy('9999')).json().error.details).toEqual({ triesLeft: 4 });
  });

  it('login PIN: a known and an unknown identifier both say tries left, then when the lock ends', async () => {
    const u = await user(h, { username: `pe_${Date.now().toString(36)}` });
    const headers = await emailGrant(h, u);
    expect((await call(h, 'POST', S('setLoginPin', 'BearerAuth'), { pin: '604218' }, { token: u.token, headers })).statusCode).toBe(200);
    const profile = (await call(h, 'GET', S('getProfile', 'BearerSettings'), undefined, { token: u.token })).json().profile;
    for (const identifier of [`@${profile.username}`, '@nobody_pin_errors']) {
      const login = () => call(h, 'POST', S('startPinLogin', 'PublicAuth'), { identifier, pin: '000000' });
      for (const left of [4, 3, 2, 1]) {
        const res = await login();
        expect(res.statusCode, identifier).toBe(401);
        expect(res.json().error).toMatchObject({ code: 'INVALID_CREDENTIALS', details: { triesLeft: left } });
      }
      const locked = await login();
      expect(locked.statusCode).toBe(429);
      const { details } = locked.json().error;
      expect(details.triesLeft).toBe(0);
      expect(Date.parse(details.lockedUntil) - h.clock.now().getTime()).toBe(Number(locked.headers['retry-after']) * 1000);
    }
  });
});
