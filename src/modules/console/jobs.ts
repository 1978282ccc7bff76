import os from 'node:os';
import path from 'node:path';
import { rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { one, rows, type Db } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Work } from '../../platform/change.js';
import { mayRun, type OperatorRole } from '../../kernel/actor.js';
import { DAY, MINUTE, type Clock } from '../../kernel/clock.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { prefixedId } from '../../kernel/ids.js';
import { hmac, safeEqual } from '../../lib/crypto.js';
import type { Logger } from '../../lib/logger.js';
import type { FileStorage } from '../../providers/storage.js';
import { EXPORT_KINDS, writeExport, type ExportKind } from './exports.js';
import { lagosRange } from './range.js';

/** The queue job that runs an operator job (its payload is the operator job's id). */
export const RUN_JOB = 'console.run';
/** Exports cover at most this many Lagos days. */
export const EXPORT_MAX_DAYS = 366;
/** A reconciliation job verifies at most this many open top-ups (the scheduled run: 1000). */
export const RECONCILE_JOB_LIMIT = 10_000;
/** A bulk requery without ids takes at most this many stuck purchases, oldest first. */
export const BULK_REQUERY_MAX = 1000;
/** Exports waiting or running at once (each holds a worker and a database connection while it writes). */
export const OPEN_EXPORTS_MAX = 5;
/** An export's file is deleted this long after it was written (the job stays, marked expired). */
export const EXPORT_RETENTION_MS = 7 * DAY;
/** Lifetime of a download link; adminGetJob signs a fresh one on each call. */
export const DOWNLOAD_URL_TTL_MS = 5 * MINUTE;

export type JobKind = 'reconciliation' | 'bulk_requery' | 'export';
export type JobStatus = 'queued' | 'running' | 'done' | 'failed';
export type ExportInput = { kind: ExportKind; from: string; to: string };
/** Who reads a job: an admin (audit exports) or not, and the operator and session a download link is made for. */
export interface JobViewer {
  isAdmin: boolean;
  userId: string;
  sessionId: string | null;
}

interface JobRow {
  id: string;
  kind: JobKind;
  status: JobStatus;
  input: unknown;
  progress_done: number;
  progress_total: number;
  result: unknown;
  error: string | null;
  file_key: string | null;
  created_by: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}
const COLS = sql`id, kind, status, input, progress_done, progress_total, result, error, file_key, created_by, created_at, started_at, finished_at`;
const iso = (v: string | null) => (v === null ? null : new Date(v).toISOString());
/** What the jobs use of the payments and VTU modules (their services, passed in by the module's entry). */
interface Reconciler {
  reconcile(opts: {
    minAgeMs?: number;
    limit?: number;
    onProgress?: (done: number, total: number) => Promise<void>;
  }): Promise<Record<string, number>>;
}
interface Requery {
  adminListStuck(limit: number, offset: number): Promise<{ items: { id: string }[]; hasMore: boolean }>;
  adminRequery(id: string): Promise<{ transaction: { status: string } }>;
}
const exportInput = z.object({ kind: z.enum(EXPORT_KINDS), from: z.string(), to: z.string() });

/**
 * Long operator actions as jobs with progress (issue 30): a row in operator_jobs that operators read, run by one
 * queue job (`console.run`) on the existing queue. Reconciliation and bulk requery are one at a time (starting
 * another answers the open one's id); exports write a CSV file page by page and hand it to the file storage, then
 * a short-lived signed URL downloads it (as KYC files: docs/design.md §9).
 */
export function createConsoleJobs(deps: {
  db: Db;
  /** Exports read their rows from the replica when there is one. */
  replica: { lagTolerant: Db };
  clock: Clock;
  log: Logger;
  config: Config;
  jobs: JobQueue;
  work: Work;
  storage: FileStorage;
  payments: Reconciler;
  vtu: Requery;
  /** The operator's roles as they are now, by session (identity's liveOperatorRoles). */
  liveOperatorRoles(userId: string, sessionId: string | null): Promise<readonly OperatorRole[] | null>;
}) {
  const { db, clock, log, config, jobs, work, storage, payments, vtu } = deps;
  const secret = config.secrets.fileSigningSecret;
  const signature = (id: string, expires: number, userId: string, sessionId: string) =>
    hmac(secret, `export-file\n${id}\n${expires}\n${userId}\n${sessionId}`);

  /** A link for one operator's session (issue 41): it opens the file only while they still hold the role for it. */
  function downloadUrl(id: string, viewer: JobViewer) {
    const expires = Math.floor((clock.now().getTime() + DOWNLOAD_URL_TTL_MS) / 1000);
    const session = viewer.sessionId ?? '';
    const sig = signature(id, expires, viewer.userId, session);
    return {
      url: `${config.publicUrl}/files/exports/${id}.csv?expires=${expires}&by=${viewer.userId}&session=${session}&sig=${sig}`,
      expiresAt: new Date(expires * 1000).toISOString(),
    };
  }

  /** The audit trail is exported and read by admins only (adminSearchAudit is admin only): others see no link. */
  const mayDownload = (input: unknown, isAdmin: boolean) => isAdmin || (input as { kind?: string } | null)?.kind !== 'audit';

  function view(r: JobRow, viewer: JobViewer) {
    const link =
      r.kind === 'export' && r.status === 'done' && r.file_key && mayDownload(r.input, viewer.isAdmin) ? downloadUrl(r.id, viewer) : null;
    return {
      id: r.id,
      kind: r.kind,
      status: r.status,
      input: (r.input ?? {}) as Record<string, unknown>,
      progress: { done: r.progress_done, total: r.progress_total },
      result: (r.result ?? undefined) as Record<string, unknown> | undefined,
      error: r.error ?? undefined,
      downloadUrl: link?.url,
      downloadExpiresAt: link?.expiresAt,
      createdBy: r.created_by,
      createdAt: new Date(r.created_at).toISOString(),
      startedAt: iso(r.started_at),
      finishedAt: iso(r.finished_at),
    };
  }

  async function start(actorId: string, kind: JobKind, input: Record<string, unknown>) {
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

  /** Writes progress at most ~100 times a run (and at least every second of work), renewing the queue lease. */
  function progressWriter(id: string, queueJobId: string) {
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

  async function runExport(id: string, input: ExportInput, progress: (d: number, t: number) => Promise<void>) {
    const range = lagosRange(input, clock.now(), EXPORT_MAX_DAYS);
    const tmp = path.join(os.tmpdir(), `vtu-export-${id}-${process.pid}.csv`);
    try {
      const written = await writeExport(deps.replica.lagTolerant, input.kind, range, tmp, progress);
      const fileKey = `exports/${id}.csv`;
      await storage.putFile(fileKey, tmp, 'text/csv');
      return { result: { ...written, kind: input.kind, from: range.from, to: range.to }, fileKey };
    } finally {
      await rm(tmp, { force: true });
    }
  }

  async function runBulkRequery(input: { ids?: string[] }, progress: (d: number, t: number) => Promise<void>) {
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

  async function run(id: string, queueJobId: string) {
    const now = clock.now();
    const job = await one<Pick<JobRow, 'kind' | 'input'>>(
      db,
      sql`UPDATE operator_jobs SET status = 'running', started_at = coalesce(started_at, ${now}), updated_at = ${now}
          WHERE id = ${id} AND status IN ('queued', 'running') RETURNING kind, input`,
    );
    if (!job) return;
    const progress = progressWriter(id, queueJobId);
    try {
      const { result, fileKey } =
        job.kind === 'export'
          ? await runExport(id, exportInput.parse(job.input), progress)
          : job.kind === 'bulk_requery'
            ? await runBulkRequery(job.input as { ids?: string[] }, progress)
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

  return {
    startReconciliation: (actorId: string) => start(actorId, 'reconciliation', {}),
    startBulkRequery: (actorId: string, ids?: string[]) => start(actorId, 'bulk_requery', ids ? { ids: [...new Set(ids)] } : {}),

    async startExport(actorId: string, actorIsAdmin: boolean, input: ExportInput) {
      if (input.kind === 'audit' && !actorIsAdmin) throw new AppError('FORBIDDEN', 'The audit log is exported by admins only');
      const range = lagosRange(input, clock.now(), EXPORT_MAX_DAYS);
      const open = await one<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM operator_jobs WHERE kind = 'export' AND status IN ('queued', 'running')`,
      );
      if ((open?.n ?? 0) >= OPEN_EXPORTS_MAX)
        throw new AppError(
          'RATE_LIMITED',
          `${OPEN_EXPORTS_MAX} exports are already waiting or running; start this one when one has finished`,
          {
            retryAfter: 30,
          },
        );
      return start(actorId, 'export', { kind: input.kind, from: range.from, to: range.to });
    },

    async getJob(id: string, viewer: JobViewer) {
      const r = await one<JobRow>(db, sql`SELECT ${COLS} FROM operator_jobs WHERE id = ${id}`);
      if (!r) throw notFound('Job');
      return view(r, viewer);
    },

    async listJobs(input: { kind?: JobKind; status?: JobStatus; limit: number; offset: number }, viewer: JobViewer) {
      const list = await rows<JobRow>(
        db,
        sql`SELECT ${COLS} FROM operator_jobs
            WHERE ${input.kind ? sql`kind = ${input.kind}` : sql`true`} AND ${input.status ? sql`status = ${input.status}` : sql`true`}
            ORDER BY created_at DESC, id DESC LIMIT ${input.limit + 1} OFFSET ${input.offset}`,
      );
      return {
        items: list.slice(0, input.limit).map((r) => view(r, viewer)),
        limit: input.limit,
        offset: input.offset,
        hasMore: list.length > input.limit,
      };
    },

    run,

    /**
     * Deletes the files of exports older than EXPORT_RETENTION_MS (customer data does not pile up in storage) and
     * marks their jobs expired; 100 a run. The file goes first: a crash in between leaves a job whose link answers
     * 404, never a file no job points to.
     */
    async cleanupExports() {
      const before = new Date(clock.now().getTime() - EXPORT_RETENTION_MS);
      const old = await rows<{ id: string; file_key: string }>(
        db,
        sql`SELECT id, file_key FROM operator_jobs WHERE kind = 'export' AND file_key IS NOT NULL AND finished_at < ${before}
            ORDER BY finished_at LIMIT 100`,
      );
      for (const j of old) {
        await storage.remove(j.file_key);
        await db.execute(
          sql`UPDATE operator_jobs SET file_key = NULL, result = coalesce(result, '{}'::jsonb) || '{"expired": true}'::jsonb, updated_at = ${clock.now()}
              WHERE id = ${j.id}`,
        );
      }
      return old.length;
    },

    /**
     * Checks a signed export link (constant time) and opens the file; tampered or expired links are FORBIDDEN, and so
     * is a link whose operator no longer holds a role that exports (read live: a role revoked, the account closed or
     * the session ended within the link's 5 minutes, issue 41).
     */
    async openSignedExport(id: string, q: { expires?: unknown; by?: unknown; session?: unknown; sig?: unknown }) {
      const text = (v: unknown) => (typeof v === 'string' ? v : '');
      const expires = /^\d{1,12}$/.test(text(q.expires)) ? Number(q.expires) : NaN;
      const [by, session] = [text(q.by), text(q.session)];
      if (!Number.isFinite(expires) || !safeEqual(text(q.sig), signature(id, expires, by, session)))
        throw new AppError('FORBIDDEN', 'This download link is not valid');
      if (clock.now().getTime() > expires * 1000)
        throw new AppError('FORBIDDEN', 'This download link has expired; open the job again for a new one');
      const roles = await deps.liveOperatorRoles(by, session || null);
      if (!roles) throw new AppError('FORBIDDEN', 'The session this download link was made for has ended; sign in and open the job again');
      const r = await one<JobRow>(db, sql`SELECT ${COLS} FROM operator_jobs WHERE id = ${id} AND kind = 'export' AND status = 'done'`);
      if (!mayRun(roles, ['finance']) || (r && !mayDownload(r.input, mayRun(roles, []))))
        throw new AppError(
          'FORBIDDEN',
          'This download link was made for an operator who no longer holds a role that may download this export',
        );
      if (!r?.file_key) throw notFound('Export');
      const input = exportInput.parse(r.input);
      const file = await storage.download(r.file_key, 'text/csv; charset=utf-8', `${input.kind}-${input.from}-to-${input.to}.csv`);
      if (!file) throw notFound('Export');
      return { file, fileName: `${input.kind}-${input.from}-to-${input.to}.csv` };
    },
  };
}

export type ConsoleJobs = ReturnType<typeof createConsoleJobs>;
