import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, fundWallet, signIn, type Harness } from './helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

describe('spine', () => {
  it('signs in with an e-mail OTP and reads the wallet', async () => {
    const u = await signIn(h);
    await fundWallet(h, u.id, 1500.5);
    const res = await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: u.token });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.ok).toBe(true);
    expect(body.balance).toBe(1500.5);
    expect(body.log[0]).toMatchObject({ type: 'adjustment', amount: 1500.5, balanceAfter: 1500.5 });
  });

  it('refuses without a token', async () => {
    const res = await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet');
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('UNAUTHENTICATED');
  });
});
