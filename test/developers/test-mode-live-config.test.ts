import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, expectLedgerOk, type Harness, type TestUser } from '../helpers/harness.js';
import { user, walletBalance } from '../helpers/factories.js';

// Issue 45: test mode works "even in production": the live world here is no sandbox (no simulators, its providers at
// an address nothing answers), yet a test key's purchase is answered by the test world's simulators and test wallet.
const nowhere = 'http://127.0.0.1:9';
let h: Harness;
let owner: TestUser;
let testKey: string;

beforeAll(async () => {
  h = await createHarness({
    env: {
      SANDBOX: 'false',
      VTU_PROVIDER_A_URL: `${nowhere}/a`,
      VTU_PROVIDER_B_URL: `${nowhere}/b`,
      VTU_PROVIDER_C_URL: `${nowhere}/c`,
      VTU_PROVIDER_D_URL: `${nowhere}/d`,
      VTU_PROVIDER_TIMEOUT_MS: '2000',
    },
  });
  owner = await user(h, { tier: 2, pin: '1234', naira: 5000 });
  const made = await call(
    h,
    'POST',
    '/_serverFn/createApiKeyBearerDevelopers',
    { name: 'try', mode: 'test', scopes: ['read', 'purchase'] },
    { token: owner.token },
  );
  expect(made.statusCode, made.body).toBe(200);
  testKey = made.json().secret;
});
afterAll(async () => h.close());

describe('test mode beside a live world that is no sandbox', () => {
  it('the live world has no simulators; a test key buys at the test world`s simulators from the test wallet', async () => {
    expect(h.app.services.config.sandbox).toBe(false);
    expect((await call(h, 'GET', '/sandbox/mailbox')).statusCode).toBe(404);
    const funded = await call(h, 'POST', '/_serverFn/fundTestWalletBearerDevelopers', { amount: 1000 }, { token: owner.token });
    expect(funded.statusCode, funded.body).toBe(200);
    const liveBefore = await walletBalance(h, owner.id);
    const buy = await call(
      h,
      'POST',
      '/api/v1/buyAirtime',
      { network: 'mtn', phone: '08031234567', amount: 100 },
      {
        token: testKey,
        headers: { 'idempotency-key': 'prod-test-1' },
      },
    );
    expect(buy.statusCode, buy.body).toBe(200);
    expect(buy.json().transaction.status).toBe('success');
    const wallet = await call(h, 'GET', '/_serverFn/getTestWalletBearerDevelopers', undefined, { token: owner.token });
    expect(wallet.json().balance).toBe(900);
    expect(await walletBalance(h, owner.id)).toBe(liveBefore);
    await expectLedgerOk(h);
  });
});
