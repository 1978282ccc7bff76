import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Work } from '../../platform/change.js';
import type { OperatorRole } from '../../kernel/actor.js';
import { DAY, MINUTE, type Clock } from '../../kernel/clock.js';
import type { Logger } from '../../lib/logger.js';
import type { FileStorage } from '../../providers/storage.js';
import { EXPORT_KINDS, type ExportKind } from './exports.js';

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

export interface JobRow {
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
export const COLS = sql`id, kind, status, input, progress_done, progress_total, result, error, file_key, created_by, created_at, started_at, finished_at`;
export const iso = (v: string | null) => (v === null ? null : new Date(v).toISOString());
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
export const exportInput = z.object({ kind: z.enum(EXPORT_KINDS), from: z.string(), to: z.string() });

/** What the operator jobs' use cases (start-job.ts, run-job.ts, read-jobs.ts, export-files.ts) use. */
export interface ConsoleJobsDeps {
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
}
