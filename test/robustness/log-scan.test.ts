import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, emailGrant, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { assertNoLeaks, findLeaks, recordSecret, type SecretStore } from '../helpers/secrets.js';

// The detector that every harness runs at close() (test/helpers/secrets.ts): it must see the secrets a test
// handles and must flag them in a log line, while not flagging ordinary numbers.
let h: Harness;
let user: TestUser;

beforeAll(async () => {
  h = await createHarness();
  user = await signIn(h);
});
afterAll(async () => h.close());

describe('log scan', () => {
  it('records the OTP, the session tokens and a PIN set through the API or the factory', async () => {
    const kinds = new Set(h.secrets.values());
    expect(kinds).toContain('otp');
    expect(h.secrets.get(user.token)).toBe('access-token');
    expect(h.secrets.get(user.refreshToken)).toBe('refresh-token');
    const res = await call(
      h,
      'POST',
      '/_serverFn/setTransactionPinFnBearerSettings',
      { pin: '4821' },
      { token: user.token, headers: await emailGrant(h, user) },
    );
    expect(res.statusCode).toBe(200);
    expect(h.secrets.get('4821')).toBe('pin');
    await h.app.services.pins.set(user.id, 'transaction', '7305');
    expect(h.secrets.get('7305')).toBe('pin');
  });

  it('flags long secrets anywhere and short ones only as whole JSON strings or after a secret key', () => {
    const store: SecretStore = new Map();
    recordSecret(store, 'pin', '1234');
    recordSecret(store, 'account-number', '0123456789');
    recordSecret(store, 'access-token', 'eyJhbGciOi.eyJzdWIi.sig-abcdef');
    expect(findLeaks(store, ['{"msg":"amount 1234 kobo","responseTime":1234.5}'])).toEqual([]);
    expect(findLeaks(store, ['{"time":17012345678901}'])).toEqual([]);
    expect(findLeaks(store, ['{"input":{"pin":"1234"}}'])[0]?.kind).toBe('pin');
    expect(findLeaks(store, ['{"msg":"pin=1234 refused"}'])[0]?.kind).toBe('pin');
    expect(findLeaks(store, ['{"err":"mail failed: Your PIN is 1234."}'])[0]?.kind).toBe('pin');
    expect(findLeaks(store, ['{"statusCode":1234,"responseTime":12}'])).toEqual([]);
    expect(findLeaks(store, ['{"pin":"set","amount":12345}'])).toEqual([]);
    expect(findLeaks(store, ['{"acct":"x0123456789"}'])[0]?.kind).toBe('account-number');
    expect(findLeaks(store, ['{"url":"/x?t=eyJhbGciOi.eyJzdWIi.sig-abcdef"}'])[0]?.kind).toBe('access-token');
    expect(() => assertNoLeaks(store, ['{"pin":"1234"}'])).toThrow(/\[pin\] \{"pin":"1234"\}/);
  });

  it('the live log stream of this harness holds none of its secrets', () => {
    expect(h.logs.length).toBeGreaterThan(0);
    expect(findLeaks(h.secrets, h.logs)).toEqual([]);
  });
});
