import { sql } from 'drizzle-orm';
import { one, type Executor } from '../../db/client.js';
import { RECONCILE_WINDOW_MS } from './model.js';

/**
 * Top-ups that need an operator, within reconciliation's window (topup_intents_open_idx): intents still pending
 * `lostAfterMs` after creation (paid ones whose webhook never came, until verified or reconciled), and settled intents
 * whose customer paid less or more than the intent asked. The console's "Waiting for an operator" reads it.
 */
export async function topupProblems(exec: Executor, now: Date, lostAfterMs: number) {
  const since = new Date(now.getTime() - RECONCILE_WINDOW_MS);
  const lostBefore = new Date(now.getTime() - lostAfterMs);
  const r = await one<{ pending: number; oldest: string | null; under: number; over: number }>(
    exec,
    sql`SELECT count(*) FILTER (WHERE status = 'pending' AND created_at <= ${lostBefore})::int AS pending,
               min(created_at) FILTER (WHERE status = 'pending' AND created_at <= ${lostBefore}) AS oldest,
               count(*) FILTER (WHERE status = 'success' AND amount_paid < amount)::int AS under,
               count(*) FILTER (WHERE status = 'success' AND amount_paid > amount)::int AS over
        FROM topup_intents WHERE status IN ('pending', 'success') AND created_at > ${since}`,
  );
  return { pending: r?.pending ?? 0, oldestPending: r?.oldest ?? null, underpaid: r?.under ?? 0, overpaid: r?.over ?? 0 };
}

/**
 * Withdrawals to a bank still pending with the processor `stuckAfterMs` after they were requested (on
 * withdrawals_pending_idx): the console's "Waiting for an operator" lists them for a requery.
 */
export async function stuckWithdrawals(exec: Executor, now: Date, stuckAfterMs: number) {
  const r = await one<{ n: number; oldest: string | null }>(
    exec,
    sql`SELECT count(*)::int AS n, min(created_at) AS oldest FROM withdrawals
        WHERE status = 'pending' AND created_at <= ${new Date(now.getTime() - stuckAfterMs)}`,
  );
  return { count: r?.n ?? 0, oldest: r?.oldest ?? null };
}
