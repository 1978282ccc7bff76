import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, listeningHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';

/**
 * Issue 30: with the app listening (as `npm start` and the browser journeys run it), the sandbox's providers are
 * this process over real HTTP, and their simulators write the same database. An admin call that waits on a provider
 * must not hold its transaction over that wait (`upstream`; reads hold none): on PGlite, one connection, the
 * simulator would wait on the call and the call on the simulator.
 */
let h: Harness & { base: string };
let admin: TestUser;
beforeAll(async () => {
  h = await listeningHarness({ env: { OPERATOR_2FA: 'optional' } });
  admin = await signIn(h, 'admin@example.com');
});
afterAll(async () => h?.close());

describe('admin calls that wait on a provider, over real HTTP', () => {
  it('lists floats with the provider balances and funds a float, each with its one audit row', async () => {
    const started = Date.now();
    const list = await call(h, 'GET', '/_serverFn/adminListProviderFloatsBearerAdmin', undefined, { token: admin.token });
    expect(list.statusCode, list.body).toBe(200);
    const before = list.json().items.find((f: { provider: string }) => f.provider === 'd');
    expect(before.providerBalance).not.toBeNull();
    const fund = await call(
      h,
      'POST',
      '/_serverFn/adminFundProviderFloatBearerAdmin',
      { provider: 'd', amount: 5000 },
      { token: admin.token },
    );
    expect(fund.statusCode, fund.body).toBe(200);
    expect(fund.json().providerBalance).toBe(before.providerBalance + 5000);
    // Well under the upstream timeout: nothing waited on itself.
    expect(Date.now() - started).toBeLessThan(5000);
    const audit = await call(
      h,
      'GET',
      '/_serverFn/adminSearchAuditBearerAdmin',
      { operation: 'adminFundProviderFloat' },
      { token: admin.token },
    );
    expect(audit.json().items).toHaveLength(1);
    expect(audit.json().items[0]).toMatchObject({
      outcome: 'ok',
      targets: [{ type: 'provider', id: 'd' }],
      before: { providerBalance: before.providerBalance },
      after: { providerBalance: before.providerBalance + 5000 },
    });
  });
});
