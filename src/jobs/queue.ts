import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { one, rows, type Db, type Executor } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import { MINUTE, SECOND } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';

/**
 * Jobs are data (STYLE rule 9): a name, a payload schema and a handler. The queue is a table in the same
 * database, so a job is enqueued inside the caller's transaction and runs only if that transaction commits.
 * Claiming uses FOR UPDATE SKIP LOCKED, so any number of workers share it; failures retry with exponential
 * backoff and end in `dead` (visible to operators) after maxAttempts. Cron slots are enqueued with a
 * deterministic singleton key, so several instances enqueue each slot once. See docs/decisions.md (why not
 * pg-boss).
 */
export interface JobDef<P extends z.ZodType = z.ZodType> {
  name: string;
  payload: P;
  maxAttempts?: number;
  /** Base backoff; attempt n waits base * 2^(n-1). */
  backoffMs?: number;
  handler: (payload: z.infer<P>, meta: { attempt: number; jobId: string }) => Promise<void>;
}

/** Optional properties of an error thrown by a handler: wait at least retryAfterMs; permanent goes to dead at once. */
export interface JobFailureHints {
  retryAfterMs?: number;
  permanent?: boolean;
}

export interface CronDef {
  job: string;
  /** Slot length: the job is enqueued once per slot, keyed by slot start. */
  everyMs: number;
  /** Offset of the slot start from the epoch grid (e.g. 23 hours for 00:00 Lagos on a daily grid). */
  offsetMs?: number;
  payload?: unknown;
}

export interface EnqueueOptions {
  runAt?: Date;
  delayMs?: number;
  singletonKey?: string;
  maxAttempts?: number;
}

/** Jobs the polling loop runs side by side (each holds at most one pool connection at a time). */
export const WORKER_CONCURRENCY = 8;

export class JobQueue {
  private defs = new Map<string, JobDef<any>>();
  private crons: CronDef[] = [];
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = true;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  register<P extends z.ZodType>(def: JobDef<P>): void {
    this.defs.set(def.name, def as JobDef<any>);
  }

  schedule(cron: CronDef): void {
    this.crons.push(cron);
  }

  /** Enqueue inside the caller's transaction (or on the database). Returns false when the singleton exists. */
  async enqueue(exec: Executor, name: string, payload: unknown, opts: EnqueueOptions = {}): Promise<boolean> {
    const def = this.defs.get(name);
    if (!def) throw new Error(`jobs: unknown job ${name}`);
    const parsed = def.payload.parse(payload);
    const now = this.clock.now();
    const runAt = opts.runAt ?? new Date(now.getTime() + (opts.delayMs ?? 0));
    const r = await one<{ id: string }>(
      exec,
      sql`INSERT INTO jobs (queue, payload, status, run_at, max_attempts, singleton_key, created_at, updated_at)
          VALUES (${name}, ${JSON.stringify(parsed)}::jsonb, 'queued', ${runAt}, ${opts.maxAttempts ?? def.maxAttempts ?? 5},
                  ${opts.singletonKey ?? null}, ${now}, ${now})
          ON CONFLICT (singleton_key) DO NOTHING RETURNING id::text AS id`,
    );
    return Boolean(r);
  }

  /** Enqueue the current slot of every cron schedule (idempotent per slot). */
  async tickCrons(): Promise<void> {
    const now = this.clock.now().getTime();
    for (const c of this.crons) {
      const off = c.offsetMs ?? 0;
      const slot = Math.floor((now - off) / c.everyMs) * c.everyMs + off;
      await this.enqueue(this.db, c.job, c.payload ?? {}, { singletonKey: `cron:${c.job}:${new Date(slot).toISOString()}`, runAt: new Date(slot) });
    }
  }

  /** Claims and runs due jobs until none is due; returns how many ran. Tests call this after moving the clock. */
  async drain(max = 1000): Promise<number> {
    let ran = 0;
    while (ran < max) {
      const batch = await this.claim(10);
      if (!batch.length) break;
      for (const job of batch) {
        await this.runOne(job);
        ran++;
      }
    }
    return ran;
  }

  private async claim(n: number) {
    const now = this.clock.now();
    const lockUntil = new Date(now.getTime() + 5 * MINUTE);
    // A running job whose lock expired belongs to a crashed worker and is claimed again.
    return rows<{ id: string; queue: string; payload: unknown; attempts: number; max_attempts: number }>(
      this.db,
      sql`UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_until = ${lockUntil}, updated_at = ${now}
          WHERE id IN (
            SELECT id FROM jobs
            WHERE (status = 'queued' AND run_at <= ${now}) OR (status = 'running' AND locked_until < ${now})
            ORDER BY run_at LIMIT ${n} FOR UPDATE SKIP LOCKED)
          RETURNING id::text AS id, queue, payload, attempts, max_attempts`,
    );
  }

  private async runOne(job: { id: string; queue: string; payload: unknown; attempts: number; max_attempts: number }) {
    const def = this.defs.get(job.queue);
    const now = () => this.clock.now();
    try {
      if (!def) throw new Error(`no handler registered for ${job.queue}`);
      await def.handler(def.payload.parse(job.payload), { attempt: job.attempts, jobId: job.id });
      await this.db.execute(sql`UPDATE jobs SET status = 'done', locked_until = NULL, updated_at = ${now()} WHERE id = ${job.id}`);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // A handler may throw an error carrying JobFailureHints (e.g. a push service's 429 Retry-After).
      const hints = (err ?? {}) as JobFailureHints;
      const dead = job.attempts >= job.max_attempts || hints.permanent === true;
      const backoff = Math.max((def?.backoffMs ?? 5 * SECOND) * 2 ** (job.attempts - 1), Number(hints.retryAfterMs) || 0);
      this.log.warn({ job: job.queue, jobId: job.id, attempt: job.attempts, dead, err: message }, 'job failed');
      await this.db.execute(
        sql`UPDATE jobs SET status = ${dead ? 'dead' : 'queued'}, run_at = ${new Date(now().getTime() + backoff)},
            locked_until = NULL, last_error = ${message.slice(0, 2000)}, updated_at = ${now()} WHERE id = ${job.id}`,
      );
    }
  }

  /**
   * Claims up to `concurrency` due jobs at a time and runs them side by side, until none is due (the polling
   * loop; tests use drain(), which runs one at a time in claim order). Jobs are independent rows claimed with
   * SKIP LOCKED, so this is what several workers would do anyway.
   */
  private async drainConcurrently(max: number, concurrency: number): Promise<number> {
    let ran = 0;
    while (ran < max) {
      const batch = await this.claim(concurrency);
      if (!batch.length) break;
      await Promise.all(batch.map((job) => this.runOne(job)));
      ran += batch.length;
    }
    return ran;
  }

  private loop: (() => Promise<void>) | null = null;
  private nudged = false;

  /** Starts polling (main and the sandbox); tests drive drain() themselves. */
  start(pollMs = 1000, concurrency = WORKER_CONCURRENCY): void {
    this.stopped = false;
    const loop = async () => {
      if (this.stopped) return;
      this.timer = null;
      this.nudged = false;
      try {
        this.running = (async () => {
          await this.tickCrons();
          await this.drainConcurrently(1000, concurrency);
        })();
        await this.running;
      } catch (err) {
        this.log.error({ err }, 'job loop failed');
      } finally {
        this.running = null;
        if (!this.stopped) this.timer = setTimeout(loop, this.nudged ? 0 : pollMs);
      }
    };
    this.loop = loop;
    this.timer = setTimeout(loop, 0);
  }

  /**
   * Call after committing a transaction that enqueued urgent work (a webhook credit): the polling loop runs now
   * instead of at its next tick. A no-op when the loop is not started (tests) or already about to run.
   */
  nudge(): void {
    if (this.stopped || !this.loop) return;
    this.nudged = true;
    if (this.running) return; // the loop re-runs at once when it finishes
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(this.loop, 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.running) await this.running.catch(() => undefined);
  }

  async deadJobs(limit = 50) {
    return rows<{ id: string; queue: string; last_error: string | null; attempts: number; updated_at: Date }>(
      this.db,
      sql`SELECT id::text AS id, queue, last_error, attempts, updated_at FROM jobs WHERE status = 'dead' ORDER BY id DESC LIMIT ${limit}`,
    );
  }
}
