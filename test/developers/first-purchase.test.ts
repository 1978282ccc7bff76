import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstPurchase } from '../../web/src/features/developers/first-purchase.js';
import { call, expectLedgerOk, listeningHarness, type Harness } from '../helpers/harness.js';
import { user, walletBalance } from '../helpers/factories.js';

// Issue 45: the developer page's curl for the first purchase, run as a developer would, with their key in KEY's place.
let h: Harness & { base: string };

beforeAll(async () => {
  h = await listeningHarness();
}, 120_000);
afterAll(async () => h?.close());

describe("the developer page's first purchase", () => {
  it('buys airtime through the versioned path with the key, once', async () => {
    const owner = await user(h, { tier: 3, naira: 1000, level: 'api_partner' });
    const made = await call(
      h,
      'POST',
      '/_serverFn/createApiKeyBearerDevelopers',
      { name: 'curl', mode: 'live', scopes: ['purchase'] },
      { token: owner.token },
    );
    expect(made.statusCode, made.body).toBe(200);
    const { secret, key } = made.json();
    const command = firstPurchase(h.base, key.prefix, 'your key');
    expect(command.split('\n')[0]).toBe(`KEY='${key.prefix}…'  # your key`);
    const real = command.replace(/^KEY='[^']*'/, `KEY='${secret}'`);
    // Asynchronously: the service answering it runs in this process.
    const run = await promisify(execFile)('sh', ['-c', real], { encoding: 'utf8', timeout: 30_000 });
    const out = JSON.parse(run.stdout);
    expect(out.ok, JSON.stringify(out)).toBe(true);
    expect(out.transaction).toMatchObject({ status: 'success', amount: 100 });
    expect(await walletBalance(h, owner.id)).toBe(900);
    await expectLedgerOk(h);
  });
});
