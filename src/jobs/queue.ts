import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { one, plannedPerCall, rows, type Db, type Executor } from '../db/client.js';
import { MINUTE, SECOND, type Clock } from '../kernel/clock.js';
import type { Logger } from '../lib/logger.js';
import { apartFromRequests } from '../db/request-scope.js';
import { LoopLag } from './loop-lag.js';
import type { JobRow } from './rows.js';
import { deadJobsOf, drainConcurrently, queueBacklog, runLaneOnce, startLane, Turns, type Claimed, type LaneHost } from './lanes.js';

export type { Claimed } from './lanes.js';
export type { CronDef, EnqueueOptions, JobDef, JobFailureHints, JobRequest } from './types.js';
import type { CronDef, EnqueueOptions, JobDef, JobFailureHints, JobRequest } from './types.js';

/**
 * Jobs are data (docs/style.md rule 9): a name, a payload schema and a handler. The queue is a table in the same
 * database, so a job is enqueued inside the caller's transaction and runs only if that transaction commits.
 * Claiming uses FOR UPDATE SKIP LOCKED, so any number of workers share it; failures retry with exponential
 * backoff and end in `dead` (visible to operators) after maxAttempts. Cron slots are enqueued with a
 * deterministic singleton key, so several instances enqueue each slot once. See docs/decisions.md (why not
 * pg-boss).
 */
/** Jobs the polling loop runs side by side (each holds at most one pool connection at a time). */
export const WORKER_CONCURRENCY = 8;

export class JobQueue {
  private defs = new Map<string, JobDef<any>>();
  private crons: CronDef[] = [];
  /** Each schedule's slot this instance last enqueued (tickCrons). */
  private cronSlots = new Map<CronDef, number>();
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
    return Boolean(await one<{ id: string }>(exec, this.enqueueSql(name, payload, opts)));
  }

  /**
   * Several jobs (of any queues) in ONE statement, each row exactly enqueue()'s; a singleton that exists is skipped
   * as there. The statement's text is the same for any number of jobs (they travel as one JSON parameter), so it is
   * planned once per connection. Returns how many were inserted.
   */
  async enqueueMany(exec: Executor, list: readonly JobRequest[]): Promise<number> {
    if (!list.length) return 0;
    const now = this.clock.now();
    const records = list.map(({ name, payload, opts = {} }) => {
      const def = this.defs.get(name);
      if (!def) throw new Error(`jobs: unknown job ${name}`);
      return {
        queue: name,
        payload: def.payload.parse(payload),
        run_at: (opts.runAt ?? new Date(now.getTime() + (opts.delayMs ?? 0))).toISOString(),
        max_attempts: opts.maxAttempts ?? def.maxAttempts ?? 5,
        priority: def.priority ?? 0,
        singleton_key: opts.singletonKey ?? null,
      };
    });
    const inserted = await rows<{ id: string }>(
      exec,
      sql`INSERT INTO jobs (queue, payload, status, run_at, max_attempts, priority, singleton_key, created_at, updated_at)
          SELECT x.queue, x.payload, 'queued', x.run_at, x.max_attempts, x.priority, x.singleton_key, ${now}, ${now}
          FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb)
            AS x(queue text, payload jsonb, run_at timestamptz, max_attempts int, priority smallint, singleton_key text)
          ON CONFLICT (singleton_key) DO NOTHING RETURNING id::text AS id`,
    );
    return inserted.length;
  }

  /**
   * The INSERT enqueue() runs, for a caller that writes its own row and the job in ONE statement (a
   * data-modifying CTE): with `from` (e.g. the CTE's name) it inserts one job per row of `from`, so both or
   * neither exist. The job row is exactly enqueue()'s (same payload validation, defaults, singleton key).
   */
  enqueueSql(name: string, payload: unknown, opts: EnqueueOptions = {}, from?: SQL): SQL {
    return this.insertSql(name, sql`${JSON.stringify(this.payloadOf(name, payload))}::jsonb`, opts, from);
  }

  /** A job's payload as enqueue() stores it (checked by its queue's schema): what enqueueEachSql's rows carry. */
  payloadOf(name: string, payload: unknown): unknown {
    const def = this.defs.get(name);
    if (!def) throw new Error(`jobs: unknown job ${name}`);
    return def.payload.parse(payload);
  }

  /** A job as data for insertJobRowsSql (rows.ts): enqueue()'s payload check, defaults and singleton key. */
  jobRow(name: string, payload: unknown, opts: EnqueueOptions = {}): JobRow {
    const def = this.defs.get(name);
    const runAt = opts.runAt ?? (opts.delayMs ? new Date(this.clock.now().getTime() + opts.delayMs) : null);
    const [maxAttempts, priority] = [opts.maxAttempts ?? def?.maxAttempts ?? 5, def?.priority ?? 0];
    return {
      queue: name,
      payload: this.payloadOf(name, payload),
      runAt: runAt?.toISOString() ?? null,
      singletonKey: opts.singletonKey ?? null,
      maxAttempts,
      priority,
    };
  }

  /**
   * enqueueSql for jobs whose payloads travel in the rows of `from` (a mergeable part writing the jobs of several
   * changes in one statement): one job per row, its payload the jsonb expression `payload` over the row, which must
   * carry a payloadOf(name, ...).
   */
  enqueueEachSql(name: string, payload: SQL, from: SQL, opts: EnqueueOptions = {}): SQL {
    if (!this.defs.has(name)) throw new Error(`jobs: unknown job ${name}`);
    return this.insertSql(name, payload, opts, from);
  }

  private insertSql(name: string, payload: SQL, opts: EnqueueOptions, from?: SQL): SQL {
    const def = this.defs.get(name)!;
    const now = this.clock.now();
    const runAt = opts.runAt ?? new Date(now.getTime() + (opts.delayMs ?? 0));
    const values = sql`${name}, ${payload}, 'queued', ${runAt}, ${opts.maxAttempts ?? def.maxAttempts ?? 5},
                  ${def.priority ?? 0}::smallint, ${opts.singletonKey ?? null}, ${now}, ${now}`;
    return sql`INSERT INTO jobs (queue, payload, status, run_at, max_attempts, priority, singleton_key, created_at, updated_at)
          ${from ? sql`SELECT ${values} FROM ${from}` : sql`VALUES (${values})`}
          ON CONFLICT (singleton_key) DO NOTHING RETURNING id::text AS id`;
  }

  /**
   * A long handler (an operator's export or reconciliation) renews the lease of its running job as it makes progress,
   * so no other worker takes it for a crashed one while it works. False when the job is no longer running.
   */
  async extendLease(id: string, ms = 5 * MINUTE): Promise<boolean> {
    const now = this.clock.now();
    return Boolean(
      await one(
        this.db,
        sql`UPDATE jobs SET locked_until = ${new Date(now.getTime() + ms)}, updated_at = ${now} WHERE id = ${id}::bigint AND status = 'running' RETURNING 1 AS x`,
      ),
    );
  }

  /**
   * Enqueue the current slot of every cron schedule (idempotent per slot). A slot this instance has enqueued already
   * is not sent again: the polling loop ticks every second, and a statement per schedule per tick was most of an idle
   * instance's work.
   */
  async tickCrons(): Promise<void> {
    const now = this.clock.now().getTime();
    for (const c of this.crons) {
      const off = c.offsetMs ?? 0;
      const slot = Math.floor((now - off) / c.everyMs) * c.everyMs + off;
      if (this.cronSlots.get(c) === slot) continue;
      await this.enqueue(this.db, c.job, c.payload ?? {}, {
        singletonKey: `cron:${c.job}:${new Date(slot).toISOString()}`,
        runAt: new Date(slot),
      });
      this.cronSlots.set(c, slot);
    }
  }

  /** Claims and runs due jobs until none is due; returns how many ran. Tests call this after moving the clock. */
  async drain(max = 1000): Promise<number> {
    let ran = 0;
    while (ran < max) {
      let lanes = 0;
      for (const def of this.batched()) lanes += await runLaneOnce(this.laneHost, def);
      ran += lanes;
      const batch = await this.claim(Math.min(10, max - ran));
      if (!batch.length) {
        if (lanes) continue;
        break;
      }
      const done: string[] = [];
      for (const job of batch) {
        if (await this.runOne(job)) done.push(job.id);
        ran++;
      }
      await this.complete(done);
    }
    return ran;
  }

  /** The batched queues, urgent ones (priority > 0, webhook credits) first. */
  private batched(): JobDef<any>[] {
    return [...this.defs.values()].filter((d) => d.batch).sort((a, b) => (b.priority ?? 0) - (a.priority ?? 0));
  }

  private lag = new LoopLag();
  /** How late this worker's event loop runs now, in ms (loop-lag.ts); 0 while the worker is not started. */
  loopLagMs(): number {
    return this.lag.ms();
  }

  /** Milliseconds per job of the last batch this process's lane of a queue ran (null: none ran yet). */
  private pace = new Map<string, number>();

  /**
   * Due jobs of a queue and the oldest one's due time (lanes.ts queueBacklog), with the pace of this process's lane of
   * it: milliseconds per job of its last batch, null when it has run none (tests' drain(), an API-only process).
   */
  async backlog(queue: string, limit: number): Promise<{ pending: number; oldestDueAt: Date | null; msPerJob: number | null }> {
    return { ...(await queueBacklog(this.db, this.clock, queue, limit)), msPerJob: this.pace.get(queue) ?? null };
  }

  private lanes: Promise<void>[] = [];
  private laneWakers = new Map<string, (() => void)[]>();
  private busyLanes = new Set<object>();
  private urgentLanes = new Set<object>();
  private turns: Turns | null = null;
  private held = false;
  private get laneHost(): LaneHost {
    return {
      claim: (n, lane) => this.claim(n, lane),
      recordFailure: (job, err) => this.recordFailure(job, this.defs.get(job.queue), err),
      complete: (ids) => this.complete(ids),
      log: this.log,
      stopped: () => this.stopped,
      busy: (lane, busy, urgent) => this.laneBusy(lane, busy, urgent),
      paced: (queue, jobs, ms) => this.pace.set(queue, ms / jobs),
    };
  }

  /**
   * Money that arrived goes first: while an urgent lane (webhook credits) has work, no background lane starts a batch
   * and the general loop claims nothing (what already runs ends); once it is idle, they carry on at once.
   */
  private laneBusy(lane: object, busy: boolean, urgent: boolean) {
    for (const set of urgent ? [this.busyLanes, this.urgentLanes] : [this.busyLanes]) void (busy ? set.add(lane) : set.delete(lane));
    const held = this.urgentLanes.size > 0 && !this.stopped;
    if (!urgent || held === this.held) return;
    this.held = held;
    this.turns?.hold(held);
    if (!held) this.nudge();
  }

  /** Jobs the general loop may run at once now: none while credits are due, one beside a background lane. */
  private generalConcurrency(concurrency: number): number {
    return this.urgentLanes.size ? 0 : this.busyLanes.size ? 1 : concurrency;
  }

  async claim(n: number, lane?: string): Promise<Claimed[]> {
    const now = this.clock.now();
    // A batched queue is claimed only by its lanes; the general loop leaves it alone.
    const only = lane
      ? sql`AND queue = ${lane}`
      : sql`AND queue <> ALL(${`{${this.batched()
          .map((d) => d.name)
          .join(',')}}`}::text[])`;
    // A queue's jobs all have its priority: a lane orders by due time alone (by priority it walked every queue's).
    const order = lane ? sql`run_at` : sql`priority DESC, run_at`;
    const lockUntil = new Date(now.getTime() + 5 * MINUTE);
    // A running job whose lock expired belongs to a crashed worker and is claimed again, first. Due jobs come off
    // the partial index in claim order and the scan stops at the limit. Planned per call (docs/scaling.md "The job
    // queue's claims planned per call"): a plan cached while the table was small seq-scanned it once it had grown.
    return rows<Claimed>(
      this.db,
      plannedPerCall(sql`WITH stale AS (
            SELECT id FROM jobs WHERE status = 'running' AND locked_until < ${now} ${only}
            ORDER BY locked_until LIMIT ${n} FOR UPDATE SKIP LOCKED),
          due AS (
            SELECT id FROM jobs WHERE status = 'queued' AND run_at <= ${now} ${only}
            ORDER BY ${order} LIMIT ${n} - (SELECT count(*) FROM stale) FOR UPDATE SKIP LOCKED)
          UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_until = ${lockUntil}, updated_at = ${now}
          WHERE id IN (SELECT id FROM stale UNION ALL SELECT id FROM due)
          RETURNING id::text AS id, queue, payload, attempts, max_attempts`),
    );
  }

  /** The jobs whose handler succeeded done, one statement per batch; until then 'running' under their lease. */
  async complete(ids: string[]) {
    if (!ids.length) return;
    await rows(
      this.db,
      plannedPerCall(
        sql`UPDATE jobs SET status = 'done', locked_until = NULL, updated_at = ${this.clock.now()} WHERE id = ANY(${`{${ids.join(',')}}`}::bigint[])`,
      ),
    );
  }

  /** Runs one claimed job: true when its handler succeeded (the caller completes it); a failure is recorded here. */
  async runOne(job: Claimed): Promise<boolean> {
    const def = this.defs.get(job.queue);
    try {
      if (!def) throw new Error(`no handler registered for ${job.queue}`);
      await def.handler(def.payload.parse(job.payload), { attempt: job.attempts, jobId: job.id });
      return true;
    } catch (err) {
      await this.recordFailure(job, def, err);
      return false;
    }
  }

  /** A failed job: queued again after its backoff, or dead after its last attempt (or a permanent error). */
  async recordFailure(job: Claimed, def: JobDef<any> | undefined, err: unknown): Promise<void> {
    const now = () => this.clock.now();
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

  private loop: (() => Promise<void>) | null = null;
  private nudged = false;

  /**
   * Starts polling (main and the sandbox); tests drive drain() themselves. Lanes of background queues (priority <= 0)
   * share `backgroundLanes` turns, a batch a turn, so a backlog holds no more of the machine; credit lanes run freely.
   */
  start(pollMs = 1000, concurrency = WORKER_CONCURRENCY, backgroundLanes = 1): void {
    this.stopped = false;
    this.lag.start();
    let cronsTickedAt = -Infinity;
    const loop = async () => {
      if (this.stopped) return;
      this.timer = null;
      this.nudged = false;
      try {
        this.running = (async () => {
          // Slots are enqueued at most one poll late, not re-inserted on every nudged run under load.
          if (Date.now() - cronsTickedAt >= pollMs / 2) {
            cronsTickedAt = Date.now();
            await this.tickCrons();
          }
          await drainConcurrently(
            this.laneHost,
            (job) => this.runOne(job),
            1000,
            () => this.generalConcurrency(concurrency),
          );
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
    const turns = (this.turns = new Turns(backgroundLanes));
    for (const def of this.batched()) {
      const wakers: (() => void)[] = [];
      this.laneWakers.set(def.name, wakers);
      const shared = (def.priority ?? 0) > 0 ? undefined : turns;
      for (let i = 0; i < (def.batch!.lanes ?? 1); i++) this.lanes.push(startLane(this.laneHost, def, wakers, shared));
    }
  }

  /**
   * Call after committing a transaction that enqueued urgent work (a webhook credit): the polling loop runs now
   * instead of at its next tick. A no-op when the loop is not started (tests) or already about to run.
   */
  nudge(queue?: string): void {
    if (this.stopped || !this.loop) return;
    const lane = queue && this.laneWakers.get(queue);
    if (lane) return lane.forEach((w) => w());
    this.nudged = true;
    if (this.running) return; // the loop re-runs at once when it finishes
    if (this.timer) clearTimeout(this.timer);
    // A request that wakes the loop must not lend it its scope: the jobs it runs are no request's (request-scope.ts).
    this.timer = setTimeout(apartFromRequests, 0, this.loop);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.lag.stop();
    if (this.timer) clearTimeout(this.timer);
    if (this.running) await this.running.catch(() => undefined);
    this.held = false;
    this.turns?.hold(false);
    for (const wakers of this.laneWakers.values()) wakers.forEach((w) => w());
    await Promise.all(this.lanes.splice(0));
    this.laneWakers.clear();
  }

  deadJobs(limit = 50) {
    return deadJobsOf(this.db, limit);
  }
}
