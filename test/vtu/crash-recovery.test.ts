import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectLedgerOk, usingPostgres, type Harness } from '../helpers/harness.js';
import { CRASH_REASON, expectRecovered, killMidPurchase } from './crash.js';
import { buyer, mtn, VTU_ENV, walletBalance } from './helpers.js';

/**
 * Start-up recovery: a process killed (SIGKILL) between the debit and the provider's answer leaves a processing
 * purchase; after a restart, reconciliation settles it with the original request id: delivered (4444: the
 * provider had it) or refunded (8888: the request died on the wire, the provider never recorded it).
 * A second process needs a real database server, so this runs only with TEST_DATABASE_URL.
 */
let h: Harness;
beforeAll(async () => {
  if (usingPostgres) h = await createHarness({ env: VTU_ENV });
});
afterAll(async () => h?.close());

describe.skipIf(!usingPostgres)(`crash mid-purchase (${usingPostgres ? 'PostgreSQL' : `skipped: ${CRASH_REASON}`})`, () => {
  it('a purchase whose process is killed ends delivered or refunded after restart, with at most one delivery', async () => {
    const u = await buyer(h, 5000);
    const cases = [
      { phone: mtn('4444'), expect: 'success' as const },
      { phone: mtn('8888'), expect: 'failed' as const },
    ];
    const killed: { id: string; phone: string; expect: 'success' | 'failed' }[] = [];
    for (const c of cases) {
      const input = { network: 'mtn', phone: c.phone, amount: 500 };
      const id = await killMidPurchase(h, { userId: u.id, kind: 'airtime', input, recipient: c.phone, delivered: c.expect === 'success' });
      killed.push({ id, phone: c.phone, expect: c.expect });
    }
    expect(await walletBalance(h, u.id)).toBe(4000);

    await expectRecovered(
      h,
      u.email,
      killed.map((k) => ({ ...k, recipient: k.phone })),
    );
    expect(await walletBalance(h, u.id)).toBe(4500);
    await expectLedgerOk(h);
  });
});
