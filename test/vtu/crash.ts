import { spawn } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { rows } from '../../src/db/client.js';
import { signIn, type Harness } from '../helpers/harness.js';
import { getTx, reconcile, refundCount, requestIdOf, simulatorOrders } from './helpers.js';

/**
 * The crash matrix's shared steps (crash-recovery, esim-social-crash and flights-crash tests): a purchase started in a
 * child process (crash-child.ts) on the same PostgreSQL database, killed with SIGKILL once its row is processing (and,
 * for an outcome the provider delivers, once the provider has recorded it).
 */
export const CRASH_REASON =
  'needs TEST_DATABASE_URL (PostgreSQL): a killed child process and this test must share one database server; embedded PGlite lives inside one process';

export async function waitFor<T>(what: string, fn: () => Promise<T | undefined | null | false>, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts the purchase in a child, kills it mid-flight and answers the processing row's id. */
export async function killMidPurchase(
  h: Harness,
  p: { userId: string; kycTier?: number; kind: string; input: object; recipient: string; delivered: boolean },
): Promise<string> {
  const script = path.join(import.meta.dirname, 'crash-child.ts');
  const args = [script, h.config.databaseUrl!, p.userId, String(p.kycTier ?? 1), p.kind, JSON.stringify(p.input)];
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr!.on('data', (d) => process.stderr.write(`[child] ${d}`));
  const exited = new Promise((r) => child.on('exit', r));
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const row = await waitFor('the processing row', async () => {
    const r = await rows<{ id: string; request_id: string; status: string }>(
      h.app.services.db,
      sql`SELECT id, request_id, status FROM vtu_transactions WHERE user_id = ${p.userId} AND recipient = ${p.recipient}`,
    );
    return r[0];
  });
  expect(row.status).toBe('processing');
  // 4444: the provider has recorded (and delivered) it; its answer is still held.
  if (p.delivered) await waitFor('the provider to record it', async () => (await simulatorOrders(h, row.request_id)).length > 0);
  child.kill('SIGKILL');
  await exited;
  expect(out).not.toContain('FINISHED');
  return row.id;
}

/**
 * "Restart": the test's app is a fresh instance on the same database. Its clock is moved past the child's wall-clock
 * timestamps and the not-found grace period, reconciliation runs, and each killed purchase must have ended as
 * expected under its original request id (never re-sent under another), delivered at most once and refunded once
 * exactly when it failed. Answers each one's transaction for the kind's own checks.
 */
export async function expectRecovered(
  h: Harness,
  email: string,
  killed: readonly { id: string; recipient: string; expect: 'success' | 'failed' }[],
): Promise<Record<string, any>[]> {
  h.clock.set(new Date(Date.now() + 2 * 3600_000));
  await reconcile(h, 0);
  await reconcile(h, 10 * 60_000);
  const again = await signIn(h, email); // the clock jumped past the old access token's life
  const out = [];
  for (const k of killed) {
    const tx = await getTx(h, again, k.id);
    expect(tx.status, k.recipient).toBe(k.expect);
    const requestId = await requestIdOf(h, k.id);
    expect((await simulatorOrders(h, requestId)).filter((o) => o.status === 'delivered').length).toBeLessThanOrEqual(1);
    const all = await rows<{ request_id: string }>(
      h.app.services.db,
      sql`SELECT request_id FROM sandbox_vtu_orders WHERE recipient = ${k.recipient}`,
    );
    expect(all.every((o) => o.request_id === requestId)).toBe(true);
    expect(await refundCount(h, tx.reference)).toBe(k.expect === 'failed' ? 1 : 0);
    out.push(tx);
  }
  return out;
}
