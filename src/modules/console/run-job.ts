import os from 'node:os';
import path from 'node:path';
import { rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { writeExport } from './exports.js';
import {
  BULK_REQUERY_MAX,
  EXPORT_MAX_DAYS,
  exportInput,
  RECONCILE_JOB_LIMIT,
  type ConsoleJobsDeps,
  type ExportInput,
  type JobRow,
} from './jobs-deps.js';
import { lagosRange } from './range.js';

type Progress = (d: number, t: number) => Promise<void>;

/** Writes progress at most ~100 times a run (and at least every second of work), renewing the queue lease. */
function progressWriter({ db, clock, jobs }: ConsoleJobsDeps, id: string, queueJobId: string) {
  let last = -1;
  let lastAt = 0;
  return async (done: number, total: number) => {
    const t = Date.now();
    if (done !== total && done - last < Math.max(1, total / 100) && t - lastAt < 1000) return;
    last = done;
    lastAt = t;
    await db.execute(
      sql`UPDATE operator_jobs SET progress_done = ${done}, progress_total = ${total}, updated_at = ${clock.now()} WHERE id = ${id} AND status = 'running'`,
    );
    await jobs.extendLease(queueJobId);
  };
}

async function runExport({ clock, replica, storage }: ConsoleJobsDeps, id: string, input: ExportInput, progress: Progress) {
  const range = lagosRange(input, clock.now(), EXPORT_MAX_DAYS);
  const tmp = path.join(os.tmpdir(), `vtu-export-${id}-${process.pid}.csv`);
  try {
    const written = await writeExport(replica.lagTolerant, input.kind, range, tmp, progress);
    const fileKey = `exports/${id}.csv`;
    await storage.putFile(fileKey, tmp, 'text/csv');
    return { result: { ...written, kind: input.kind, from: range.from, to: range.to }, fileKey };
  } finally {
    await rm(tmp, { force: true });
  }
}

async function runBulkRequery({ vtu, log }: ConsoleJobsDeps, input: { ids?: string[] }, progress: Progress) {
  let ids = input.ids ?? [];
  if (!input.ids) {
    for (let offset = 0; ids.length < BULK_REQUERY_MAX; offset += 100) {
      const page = await vtu.adminListStuck(100, offset);
      ids.push(...page.items.map((t) => t.id));
      if (!page.hasMore) break;
    }
    ids = ids.slice(0, BULK_REQUERY_MAX);
  }
  const summary = { checked: 0, statuses: {} as Record<string, number>, notFound: 0, errors: 0 };
  await progress(0, ids.length);
  for (const txId of ids) {
    try {
      const { transaction } = await vtu.adminRequery(txId);
      summary.statuses[transaction.status] = (summary.statuses[transaction.status] ?? 0) + 1;
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') summary.notFound++;
      else {
        summary.errors++;
        log.warn({ id: txId, err: (err as Error).message }, 'bulk requery could not requery a purchase');
      }
    }
    summary.checked++;
    await progress(summary.checked, ids.length);
  }
  return { result: summary, fileKey: null };
}

/** Runs one operator job (the queue job `console.run`): its work, then its row marked done or failed. */
export async function runJob(deps: ConsoleJobsDeps, id: string, queueJobId: string) {
  const { db, clock, log, payments } = deps;
  const now = clock.now();
  const job = await one<Pick<JobRow, 'kind' | 'input'>>(
    db,
    sql`UPDATE operator_jobs SET status = 'running', started_at = coalesce(started_at, ${now}), updated_at = ${now}
        WHERE id = ${id} AND status IN ('queued', 'running') RETURNING kind, input`,
  );
  if (!job) return;
  const progress = progressWriter(deps, id, queueJobId);
  try {
    const { result, fileKey } =
      job.kind === 'export'
        ? await runExport(deps, id, exportInput.parse(job.input), progress)
        : job.kind === 'bulk_requery'
          ? await runBulkRequery(deps, job.input as { ids?: string[] }, progress)
          : {
              result: await payments.reconcile({ minAgeMs: 0, limit: RECONCILE_JOB_LIMIT, onProgress: progress }),
              fileKey: null,
            };
    await db.execute(
      sql`UPDATE operator_jobs SET status = 'done', result = ${JSON.stringify(result)}::jsonb, file_key = ${fileKey},
            progress_done = greatest(progress_done, progress_total), finished_at = ${clock.now()}, updated_at = ${clock.now()}
          WHERE id = ${id}`,
    );
  } catch (err) {
    log.error({ err, operatorJob: id, kind: job.kind }, 'operator job failed');
    const message = err instanceof AppError ? err.message : `The job stopped: ${(err as Error).message}`;
    await db.execute(
      sql`UPDATE operator_jobs SET status = 'failed', error = ${message.slice(0, 500)}, finished_at = ${clock.now()}, updated_at = ${clock.now()} WHERE id = ${id}`,
    );
  }
}
