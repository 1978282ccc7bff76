import { sql } from 'drizzle-orm';
import { one, rows, type Executor } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { page } from '../../kernel/paging.js';
import { aboutKey, closeThreadsAbout, threadsAbout } from '../support/api.js';
import type { ReportsDeps } from './deps.js';
import { REPORT_COLS, reportView, type ReportRow } from './report-rows.js';

const getReport = (exec: Executor, id: string) =>
  one<ReportRow>(exec, sql`SELECT ${REPORT_COLS} FROM transaction_reports WHERE id = ${id}`);

/** `actorId`: the operator, whose own resolutions show at once. */
export async function adminList(
  { replica }: ReportsDeps,
  actorId: string,
  opts: { status?: string; userId?: string; limit: number; offset: number },
) {
  const exec = replica.forUser(actorId);
  const list = await rows<ReportRow>(
    exec,
    sql`SELECT ${REPORT_COLS} FROM transaction_reports
        WHERE (${opts.status ?? null}::text IS NULL OR status = ${opts.status ?? null})
          AND (${opts.userId ?? null}::uuid IS NULL OR user_id = ${opts.userId ?? null}::uuid)
        ORDER BY seq DESC LIMIT ${opts.limit + 1} OFFSET ${opts.offset}`,
  );
  // The support thread about each report's reference (issue 44): the newest of its customer's that names it.
  const threads = await threadsAbout(
    exec,
    list.map((r) => ({ userId: r.user_id, reference: r.reference })),
  );
  return page(
    list.map((r) => ({ ...reportView(r), userId: r.user_id, thread: threads.get(aboutKey(r.user_id, r.reference))?.[0] ?? null })),
    opts.limit,
    opts.offset,
  );
}

/**
 * open -> resolved once; the note goes to the user with the report_resolved notification. The customer's open support
 * threads about the report's reference close with it, in its transaction (issue 44); answers their ids.
 */
export async function adminResolve({ db, clock, work }: ReportsDeps, actorId: string, input: { id: string; note: string }) {
  return db.transaction(async (tx) => {
    const now = clock.now();
    const r = await one<ReportRow>(
      tx,
      sql`UPDATE transaction_reports SET status = 'resolved', resolution_note = ${input.note}, resolved_by = ${actorId}, resolved_at = ${now}, updated_at = ${now}
          WHERE id = ${input.id} AND status = 'open' RETURNING ${REPORT_COLS}`,
    );
    if (!r) {
      if (!(await getReport(tx, input.id))) throw notFound('Report');
      throw new AppError('CONFLICT', 'This report is already resolved');
    }
    await work
      .change(tx)
      .notify({
        userId: r.user_id,
        kind: 'report_resolved',
        title: 'Your report was resolved',
        body: input.note,
        data: { reportId: r.id, reference: r.reference },
      })
      .commit();
    const closedThreadIds = await closeThreadsAbout(tx, actorId, r.user_id, r.reference, now);
    return { report: { ...reportView(r), userId: r.user_id }, closedThreadIds };
  });
}
