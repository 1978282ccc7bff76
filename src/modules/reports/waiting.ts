import { sql } from 'drizzle-orm';
import { one, type Executor } from '../../db/client.js';

/** Open transaction reports: how many, and the oldest's creation. The console's "Waiting for an operator" reads it. */
export async function openTransactionReports(exec: Executor) {
  const r = await one<{ n: number; oldest: string | null }>(
    exec,
    sql`SELECT count(*)::int AS n, min(created_at) AS oldest FROM transaction_reports WHERE status = 'open'`,
  );
  return { count: r?.n ?? 0, oldest: r?.oldest ?? null };
}
