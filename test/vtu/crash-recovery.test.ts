import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { createHarness, expectLedgerOk, signIn, usingPostgres, type Harness } from '../helpers/harness.js';
import { buyer, getTx, mtn, reconcile, refundCount, requestIdOf, simulatorOrders, VTU_ENV, walletBalance } from './helpers.js';

/**
 * Start-up recovery: a process killed (SIGKILL) between the debit and the provider's answer leaves a processing
 * purchase; after a restart, reconciliation settles it with the original request id: delivered (4444: the
 * provider had it) or refunded (8888: the request died on the wire, the provider never recorded it).
 * A second process needs a real database server, so this runs only with TEST_DATABASE_URL.
 */
const REASON =
  'needs TEST_DATABASE_URL (PostgreSQL): a killed child process and this test must share one database server; embedded PGlite lives inside one process';

let h: Harness;
beforeAll(async () => {
  if (usingPostgres) h = await createHarness({ env: VTU_ENV });
});
afterAll(async () => h?.close());

async function waitFor<T>(what: string, fn: () => Promise<T | undefined | null>, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function startChild(userId: string, phone: string): ChildProcess {
  const script = path.join(import.meta.dirname, 'crash-child.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script, h.config.databaseUrl!, userId, phone], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.on('data', (d) => process.stderr.write(`[child] ${d}`));
  return child;
}

describe.skipIf(!usingPostgres)(`crash mid-purchase (${usingPostgres ? 'PostgreSQL' : `skipped: ${REASON}`})`, () => {
  it('a purchase whose process is killed ends delivered or refunded after restart, with at most one delivery', async () => {
    const u = await buyer(h, 5000);
    const cases = [
      { phone: mtn('4444'), expect: 'success' as const },
      { phone: mtn('8888'), expect: 'failed' as const },
    ];
    const killed: { id: string; phone: string; expect: 'success' | 'failed' }[] = [];
    for (const c of cases) {
      const child = startChild(u.id, c.phone);
      const exited = new Promise((r) => child.on('exit', r));
      let out = '';
      child.stdout!.on('data', (d) => (out += d));
      const row = await waitFor('the processing row', async () => {
        const r = await rows<{ id: string; request_id: string; status: string }>(
          h.app.services.db,
          sql`SELECT id, request_id, status FROM vtu_transactions WHERE user_id = ${u.id} AND recipient = ${c.phone}`,
        );
        return r[0];
      });
      expect(row.status).toBe('processing');
      if (c.expect === 'success') {
        // 4444: the provider has recorded (and delivered) it; its answer is still held.
        await waitFor('the provider to record it', async () => (await simulatorOrders(h, row.request_id)).length > 0);
      }
      child.kill('SIGKILL');
      await exited;
      expect(out).not.toContain('FINISHED');
      killed.push({ id: row.id, phone: c.phone, expect: c.expect });
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
