import { sql } from 'drizzle-orm';
import { one, type Executor } from '../../db/client.js';

/**
 * Open support threads, those whose last message is the customer's (awaiting a reply), and since when the longest
 * of those has waited. The console's "Waiting for an operator" reads it (support_threads_status_idx).
 */
export async function openSupportThreads(exec: Executor) {
  const r = await one<{ n: number; awaiting: number; oldest: string | null }>(
    exec,
    sql`SELECT count(*)::int AS n, (count(*) FILTER (WHERE last_author = 'user'))::int AS awaiting,
               min(coalesce(last_message_at, created_at)) FILTER (WHERE last_author = 'user') AS oldest
        FROM support_threads WHERE status = 'open'`,
  );
  return { count: r?.n ?? 0, awaitingReply: r?.awaiting ?? 0, oldestAwaiting: r?.oldest ?? null };
}
