import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import type { Work } from '../../platform/change.js';

/** A report as a purchase's or a thread's page links it (issue 44). */
export interface LinkedReport {
  id: string;
  reference: string;
  status: 'open' | 'resolved';
  createdAt: string;
}

type Row = { id: string; reference: string; status: 'open' | 'resolved'; created_at: string };
const view = (r: Row): LinkedReport => ({
  id: r.id,
  reference: r.reference,
  status: r.status,
  createdAt: new Date(r.created_at).toISOString(),
});

/** The customer's reports of this reference (any case), newest first. */
export async function reportsAbout(exec: Executor, userId: string, reference: string): Promise<LinkedReport[]> {
  const list = await rows<Row>(
    exec,
    sql`SELECT id::text AS id, reference, status, created_at FROM transaction_reports
        WHERE user_id = ${userId} AND lower(reference) = lower(${reference}) ORDER BY seq DESC`,
  );
  return list.map(view);
}

/** The customer's newest reports (at most 50): those a thread names are its reports. */
export async function reportsOf(exec: Executor, userId: string): Promise<LinkedReport[]> {
  const list = await rows<Row>(
    exec,
    sql`SELECT id::text AS id, reference, status, created_at FROM transaction_reports WHERE user_id = ${userId} ORDER BY seq DESC LIMIT 50`,
  );
  return list.map(view);
}

/**
 * Resolves the open reports among `ids` with `note`, in the caller's transaction (a thread closed resolves the reports
 * it is about), each customer told as by a resolution (report_resolved); answers the ids resolved.
 */
export async function resolveReports(
  tx: Executor,
  deps: { work: Work; clock: Clock },
  operatorId: string,
  ids: readonly string[],
  note: string,
): Promise<string[]> {
  if (!ids.length) return [];
  const now = deps.clock.now();
  const done = await rows<{ id: string; user_id: string; reference: string }>(
    tx,
    sql`UPDATE transaction_reports SET status = 'resolved', resolution_note = ${note}, resolved_by = ${operatorId}, resolved_at = ${now}, updated_at = ${now}
        WHERE id = ANY(${`{${ids.join(',')}}`}::uuid[]) AND status = 'open'
        RETURNING id::text AS id, user_id::text AS user_id, reference`,
  );
  if (!done.length) return [];
  const change = deps.work.change(tx);
  for (const r of done)
    change.notify({
      userId: r.user_id,
      kind: 'report_resolved',
      title: 'Your report was resolved',
      body: note,
      data: { reportId: r.id, reference: r.reference },
    });
  await change.commit();
  return done.map((r) => r.id);
}
