import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { call, type Harness, type TestUser } from '../helpers/harness.js';

/**
 * Short adapter timeout so "4444" (held past it) costs about a second of wall time, yet long enough that an
 * ordinary answer never times out on a loaded 2-core CI machine (PGlite serialises every query).
 */
export const VTU_ENV = {
  VTU_PROVIDER_TIMEOUT_MS: '1000',
  VTU_SANDBOX_HOLD_MS: '1400',
  VTU_SANDBOX_SLOW_MS: '60',
  VTU_NOT_FOUND_GRACE_MS: '60000',
  VTU_STUCK_AFTER_MS: '600000',
};

/** Moves the clock past the pending window and runs reconciliation like the worker would. */
export async function reconcile(h: Harness, advanceMs = 6000) {
  h.clock.advance(advanceMs);
  await h.app.services.jobs.tickCrons();
  await h.app.services.jobs.drain();
}

export async function requestIdOf(h: Harness, transactionId: string): Promise<string> {
  const r = await rows<{ request_id: string }>(h.app.services.db, sql`SELECT request_id FROM vtu_transactions WHERE id = ${transactionId}`);
  return r[0].request_id;
}

/** The simulators' record of what they delivered for one request id (all providers). */
export async function simulatorOrders(h: Harness, requestId: string) {
  return rows<{ provider: string; status: string }>(
    h.app.services.db,
    sql`SELECT provider, status FROM sandbox_vtu_orders WHERE request_id = ${requestId} ORDER BY created_at`,
  );
}

export async function refundCount(h: Harness, reference: string): Promise<number> {
  const r = await rows<{ n: number }>(
    h.app.services.db,
    sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE reference = ${`vtu_refund_${reference}`}`,
  );
  return r[0].n;
}

export { buyer, PIN, walletBalance } from '../helpers/factories.js';

export const mtn = (last4: string) => `0803123${last4}`;

export async function getTx(h: Harness, u: TestUser, id: string) {
  const res = await call(h, 'POST', '/api/v1/getMyVtuTransaction', { id }, { token: u.token });
  if (res.statusCode !== 200) throw new Error(`getMyVtuTransaction: ${res.body}`);
  return res.json().transaction;
}
