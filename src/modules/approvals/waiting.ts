import { sql } from 'drizzle-orm';
import { one, type Executor } from '../../db/client.js';

/**
 * Requests a second operator can still decide (pending, not expired): how many, and the oldest's creation. The
 * console's "Waiting for an operator" reads it (approval_requests_status_idx).
 */
export async function pendingApprovals(exec: Executor, now: Date) {
  const r = await one<{ n: number; oldest: string | null }>(
    exec,
    sql`SELECT count(*)::int AS n, min(created_at) AS oldest FROM approval_requests WHERE status = 'pending' AND expires_at > ${now}`,
  );
  return { count: r?.n ?? 0, oldest: r?.oldest ?? null };
}
