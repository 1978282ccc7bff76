import { sql } from 'drizzle-orm';
import { one, rows, type Executor } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { page } from '../../kernel/paging.js';
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
  const list = await rows<ReportRow>(
    replica.forUser(actorId),
    sql`SELECT ${REPORT_COLS} FROM transaction_reports
        WHERE (${opts.status ?? null}::text IS NULL OR status = ${opts.status ?? null})
          AND (${opts.userId ?? null}::uuid IS NULL OR user_id = ${opts.userId ?? null}::uuid)
        ORDER BY seq DESC LIMIT ${opts.limit + 1} OFFSET ${opts.offset}`,
  );
  return page(
    list.map((r) => ({ ...reportView(r), userId: r.user_id })),
    opts.limit,
    opts.offset,
  );
}

/** open -> resolved once; the note goes to the user with the report_resolved notification. */
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
    return { ...reportView(r), userId: r.user_id };
  });
}
