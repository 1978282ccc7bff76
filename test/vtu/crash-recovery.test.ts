import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { createHarness, expectLedgerOk, signIn, usingPostgres, type Harness } from '../helpers/harness.js';
import { CRASH_REASON, killMidPurchase } from './crash.js';
import { buyer, getTx, mtn, reconcile, refundCount, requestIdOf, simulatorOrders, VTU_ENV, walletBalance } from './helpers.js';

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

    // "Restart": this test's app is a fresh instance on the same database. Its clock is moved past the child's
    // wall-clock timestamps and the not-found grace period; reconciliation does the rest.
    h.clock.set(new Date(Date.now() + 2 * 3600_000));
    await reconcile(h, 0);
    await reconcile(h, 10 * 60_000);

    const again = await signIn(h, u.email); // the clock jumped past the old access token's life
    for (const k of killed) {
      const tx = await getTx(h, again, k.id);
      expect(tx.status).toBe(k.expect);
      const requestId = await requestIdOf(h, k.id);
      const orders = await simulatorOrders(h, requestId);
      expect(orders.filter((o) => o.status === 'delivered').length).toBeLessThanOrEqual(1);
      // Never re-sent under another request id: the recipient's only orders are this request id's.
      const all = await rows(h.app.services.db, sql`SELECT request_id FROM sandbox_vtu_orders WHERE recipient = ${k.phone}`);
      expect(all.every((o: any) => o.request_id === requestId)).toBe(true);
      expect(await refundCount(h, tx.reference)).toBe(k.expect === 'failed' ? 1 : 0);
    }
    expect(await walletBalance(h, u.id)).toBe(4500);
    await expectLedgerOk(h);
  });
});
