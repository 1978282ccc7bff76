import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../db/client.js';

/**
 * A support thread is about a purchase (or any reference a report names) when it is the same customer's and one of its
 * messages names the reference, in any case (issue 44: report, purchase and thread linked). No link is stored: the
 * customer's words make it, as the console's links in a message do.
 */
export interface LinkedThread {
  id: string;
  status: 'open' | 'closed';
}

/** The key of a (customer, reference) pair in threadsAbout's answer. */
export const aboutKey = (userId: string, reference: string) => `${userId}\n${reference}`;

/** For each (customer, reference) pair, the customer's threads whose messages name the reference, newest first. */
export async function threadsAbout(
  exec: Executor,
  pairs: readonly { userId: string; reference: string }[],
): Promise<Map<string, LinkedThread[]>> {
  const out = new Map<string, LinkedThread[]>();
  if (!pairs.length) return out;
  const found = await rows<{ i: number; id: string; status: 'open' | 'closed' }>(
    exec,
    sql`SELECT x.i, t.id::text AS id, t.status
        FROM jsonb_to_recordset(${JSON.stringify(pairs.map((p, i) => ({ i, user_id: p.userId, reference: p.reference })))}::jsonb)
             AS x(i int, user_id uuid, reference text)
        JOIN support_threads t ON t.user_id = x.user_id
        WHERE EXISTS (SELECT 1 FROM support_messages m WHERE m.thread_id = t.id AND strpos(lower(m.body), lower(x.reference)) > 0)
        ORDER BY x.i, t.created_at DESC`,
  );
  for (const r of found) {
    const key = aboutKey(pairs[r.i].userId, pairs[r.i].reference);
    out.set(key, [...(out.get(key) ?? []), { id: r.id, status: r.status }]);
  }
  return out;
}

/** Of `references`, those a message of the thread names (any case). */
export async function namedInThread(exec: Executor, threadId: string, references: readonly string[]): Promise<string[]> {
  if (!references.length) return [];
  const found = await rows<{ reference: string }>(
    exec,
    sql`SELECT r.reference FROM jsonb_array_elements_text(${JSON.stringify(references)}::jsonb) AS r(reference)
        WHERE EXISTS (SELECT 1 FROM support_messages m WHERE m.thread_id = ${threadId} AND strpos(lower(m.body), lower(r.reference)) > 0)`,
  );
  return found.map((r) => r.reference);
}

/**
 * Closes the customer's open threads that name `reference`, in the caller's transaction (a report resolved closes
 * the conversation about it); answers their ids.
 */
export async function closeThreadsAbout(tx: Executor, operatorId: string, userId: string, reference: string, now: Date): Promise<string[]> {
  const closed = await rows<{ id: string }>(
    tx,
    sql`UPDATE support_threads t SET status = 'closed', closed_at = ${now}, closed_by = ${operatorId}, updated_at = ${now}
        WHERE t.user_id = ${userId} AND t.status = 'open'
          AND EXISTS (SELECT 1 FROM support_messages m WHERE m.thread_id = t.id AND strpos(lower(m.body), lower(${reference})) > 0)
        RETURNING t.id::text AS id`,
  );
  return closed.map((r) => r.id);
}
