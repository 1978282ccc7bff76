import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { prefixedId } from '../../kernel/ids.js';
import { EXPORT_MAX_DAYS, OPEN_EXPORTS_MAX, RUN_JOB, type ConsoleJobsDeps, type ExportInput, type JobKind } from './jobs-deps.js';
import { lagosRange } from './range.js';

/** Starts an operator job: its row and its queue job in one transaction, or the open job of its kind. */
export async function startJob({ db, clock, work, jobs }: ConsoleJobsDeps, actorId: string, kind: JobKind, input: Record<string, unknown>) {
  const now = clock.now();
  const id = prefixedId('opj', now.getTime());
  const jobId = await db.transaction(async (tx) => {
    // One reconciliation and one bulk requery at a time (unique index on open rows of those kinds): a second
    // start answers the open job, which covers the same work.
    const created = await one<{ id: string }>(
      tx,
      sql`INSERT INTO operator_jobs (id, kind, status, input, created_by, created_at, updated_at)
          VALUES (${id}, ${kind}, 'queued', ${JSON.stringify(input)}::jsonb, ${actorId}, ${now}, ${now})
          ON CONFLICT DO NOTHING RETURNING id`,
    );
    if (!created) {
      const open = await one<{ id: string }>(
        tx,
        sql`SELECT id FROM operator_jobs WHERE kind = ${kind} AND status IN ('queued', 'running')`,
      );
      if (!open) throw new AppError('CONFLICT', 'A job of this kind just finished; start it again');
      return open.id;
    }
    await work.change(tx).enqueue(RUN_JOB, { id }).commit();
    return id;
  });
  jobs.nudge();
  return { jobId };
}

/** Starts an export: the audit trail by admins only, at most OPEN_EXPORTS_MAX waiting or running at once. */
export async function startExport(deps: ConsoleJobsDeps, actorId: string, actorIsAdmin: boolean, input: ExportInput) {
  const { db, clock } = deps;
  if (input.kind === 'audit' && !actorIsAdmin) throw new AppError('FORBIDDEN', 'The audit log is exported by admins only');
  const range = lagosRange(input, clock.now(), EXPORT_MAX_DAYS);
  const open = await one<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM operator_jobs WHERE kind = 'export' AND status IN ('queued', 'running')`,
  );
  if ((open?.n ?? 0) >= OPEN_EXPORTS_MAX)
    throw new AppError('RATE_LIMITED', `${OPEN_EXPORTS_MAX} exports are already waiting or running; start this one when one has finished`, {
      retryAfter: 30,
    });
  return startJob(deps, actorId, 'export', { kind: input.kind, from: range.from, to: range.to });
}
