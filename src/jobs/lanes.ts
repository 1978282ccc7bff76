import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../db/client.js';
import type { Clock } from '../kernel/clock.js';
import type { Logger } from '../lib/logger.js';
import type { z } from 'zod';

/** A claimed job row. */
export type Claimed = { id: string; queue: string; payload: unknown; attempts: number; max_attempts: number };

/**
 * What a batch handler may ask of the lane running it. `offTurn` runs a wait on a server elsewhere (an SMTP send)
 * without the lane's background turn, and takes a turn again before the handler goes on: the turns share this
 * machine's work (its CPU and the database), and a batch waiting on another machine holds none of it. Without turns
 * (an urgent lane, drain()) it just runs `wait`.
 */
export interface BatchLane {
  offTurn<T>(wait: () => Promise<T>): Promise<T>;
}

/** A lane with no turn to give back. */
export const TURNLESS: BatchLane = { offTurn: (wait) => wait() };

/** What a lane needs of a batched queue's JobDef (queue.ts). */
export interface LaneDef {
  name: string;
  payload: z.ZodType;
  batch?: {
    size: number;
    lanes?: number;
    idleMs?: number;
    handler: (items: { payload: any; attempt: number; maxAttempts: number; jobId: string }[], lane: BatchLane) => Promise<unknown[]>;
  };
}

/** What a batch lane needs of its JobQueue. */
export interface LaneHost {
  claim(n: number, lane?: string): Promise<Claimed[]>;
  recordFailure(job: Claimed, err: unknown): Promise<void>;
  complete(ids: string[]): Promise<void>;
  log: Logger;
  stopped(): boolean;
  /**
   * A lane reports whether its last batch found work, and whether it is urgent (a lane without turns): while an
   * urgent lane has work, JobQueue holds the background turns and the general loop claims nothing.
   */
  busy?(lane: object, busy: boolean, urgent: boolean): void;
  /** A started lane's batch of `jobs` took `ms` from its claim to its completion (JobQueue's pace of the queue). */
  paced?(queue: string, jobs: number, ms: number): void;
}

/**
 * One batch of a batched queue: claimed, handled, failures recorded, successes completed. How many ran. `claimed`
 * hears of a claim that found jobs before they run (a lane reports its work as early as it knows of it).
 */
export async function runLaneOnce(host: LaneHost, def: LaneDef, lane: BatchLane = TURNLESS, claimed?: () => void): Promise<number> {
  const jobs = await host.claim(def.batch!.size, def.name);
  if (!jobs.length) return 0;
  claimed?.();
  const items: { payload: unknown; attempt: number; maxAttempts: number; jobId: string }[] = [];
  const errors: unknown[] = jobs.map(() => null);
  for (const [i, job] of jobs.entries()) {
    const parsed = def.payload.safeParse(job.payload);
    if (parsed.success) items.push({ payload: parsed.data, attempt: job.attempts, maxAttempts: job.max_attempts, jobId: job.id });
    else errors[i] = parsed.error;
  }
  let answers: unknown[];
  try {
    answers = items.length ? await def.batch!.handler(items, lane) : [];
  } catch (err) {
    answers = items.map(() => err);
  }
  const byId = new Map(items.map((it, i) => [it.jobId, answers[i] ?? null]));
  const done: string[] = [];
  for (const [i, job] of jobs.entries()) {
    const err = errors[i] ?? byId.get(job.id) ?? null;
    if (err === null) done.push(job.id);
    else await host.recordFailure(job, err);
  }
  await host.complete(done);
  return jobs.length;
}

/**
 * At most `n` holders at once, served in the order they asked: the background lanes' turns (JobQueue.start). While
 * held (urgent work is due: webhook credits), no turn is given; turns already given run to their end.
 */
export class Turns {
  private waiting: (() => void)[] = [];
  private held = false;
  constructor(private free: number) {}

  hold(held: boolean): void {
    this.held = held;
    this.give();
  }

  /** Waits for a turn; the answer ends it (once, however often it is called). */
  async take(): Promise<() => void> {
    if (this.free > 0 && !this.held && !this.waiting.length) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.free++;
      this.give();
    };
  }

  private give() {
    while (!this.held && this.free > 0 && this.waiting.length) {
      this.free--;
      this.waiting.shift()!();
    }
  }
}

/**
 * The turn of one lane's batch, which the handler can give back while it waits on another machine (BatchLane). Waits
 * of one batch that overlap share one absence: the turn is given back when the first starts and taken again when
 * the last ends.
 */
export class LaneTurn implements BatchLane {
  private end: (() => void) | null = null;
  private away = 0;
  private back: Promise<void> | null = null;
  private over = false;
  constructor(private turns: Turns) {}

  async take(): Promise<void> {
    this.end = await this.turns.take();
  }

  /** Ends the turn (the batch is over), once it is held again if a wait was taking it back; a wait still out takes none. */
  async release(): Promise<void> {
    this.over = true;
    if (this.back) await this.back;
    this.end?.();
    this.end = null;
  }

  async offTurn<T>(wait: () => Promise<T>): Promise<T> {
    if (this.back) await this.back;
    if (this.away++ === 0) {
      this.end?.();
      this.end = null;
    }
    try {
      return await wait();
    } finally {
      if (--this.away === 0 && !this.over) {
        this.back = this.take().finally(() => (this.back = null));
        await this.back;
      }
    }
  }
}

/**
 * A lane: runs batches back to back while there are due jobs, then sleeps until a waker (nudge) or `idleMs`.
 * Several lanes (and instances) share a queue through the claim's SKIP LOCKED. With `turns`, each batch waits for a
 * turn, so the lanes sharing them work one batch at a time between them (or as many as the turns allow); a batch's
 * wait on another machine (BatchLane.offTurn) holds no turn.
 */
export function startLane(host: LaneHost, def: LaneDef, wakers: (() => void)[], turns?: Turns): Promise<void> {
  let wake: (() => void) | null = null;
  let woken = false;
  wakers.push(() => {
    woken = true;
    wake?.();
  });
  const self = {};
  return (async () => {
    while (!host.stopped()) {
      woken = false;
      let ran = 0;
      const turn = turns ? new LaneTurn(turns) : null;
      await turn?.take();
      try {
        const start = performance.now();
        ran = await runLaneOnce(host, def, turn ?? TURNLESS, () => host.busy?.(self, true, !turns));
        if (ran) host.paced?.(def.name, ran, performance.now() - start);
      } catch (err) {
        host.log.error({ err, job: def.name }, 'job lane failed');
      } finally {
        await turn?.release();
      }
      host.busy?.(self, ran > 0, !turns);
      if (ran || woken || host.stopped()) continue;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, def.batch!.idleMs ?? 250);
        wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      wake = null;
    }
    host.busy?.(self, false, !turns);
  })();
}

/**
 * Jobs of one queue due and not done (waiting, or held by a live worker), and the oldest one's due time, counted up
 * to `limit`: a bounded read on the jobs_live_queue_idx partial index (migration 1041), for admission control (the
 * webhook's backlog). A job whose worker died (lease expired) is left out until it is claimed again.
 */
export async function queueBacklog(db: Db, clock: Clock, queue: string, limit: number) {
  const now = clock.now();
  const r = await one<{ n: number; oldest: Date | string | null }>(
    db,
    sql`SELECT count(*)::int AS n, min(run_at) AS oldest FROM (
          SELECT run_at FROM jobs WHERE status IN ('queued', 'running') AND queue = ${queue} AND run_at <= ${now}
            AND (status = 'queued' OR locked_until > ${now})
          ORDER BY run_at LIMIT ${limit}) d`,
  );
  return { pending: r?.n ?? 0, oldestDueAt: r?.oldest ? new Date(r.oldest) : null };
}

/**
 * The general loop (JobQueue.start): runs due jobs with at most `concurrency` side by side until none is due (the polling loop; tests use drain(),
 * which runs one at a time in claim order). One statement claims jobs for every free slot once at least half
 * the slots are free, so a claimed job starts at once (its lease is never spent waiting); successful jobs are
 * completed by one statement per flush, and jobs finishing during a flush go in the next one. Jobs are
 * independent rows claimed with SKIP LOCKED, so this is what several workers would do anyway.
 */
export async function drainConcurrently(
  host: LaneHost,
  runOne: (job: Claimed) => Promise<boolean>,
  max: number,
  concurrencyNow: number | (() => number),
): Promise<number> {
  let ran = 0;
  const running = new Set<Promise<void>>();
  const finished: string[] = [];
  let flushing: Promise<void> | null = null;
  const flush = () =>
    (flushing ??= (async () => {
      try {
        while (finished.length) await host.complete(finished.splice(0));
      } catch (err) {
        // Left 'running': they run again after their lease, as after a crash.
        host.log.error({ err }, 'job completion failed');
      } finally {
        flushing = null;
      }
    })());
  let drained = false;
  while (ran < max) {
    // The concurrency allowed now (JobQueue: none while webhook credits are due, one while a background lane works).
    const concurrency = typeof concurrencyNow === 'number' ? concurrencyNow : concurrencyNow();
    const free = concurrency - running.size;
    // Claim again once half the slots are free, or, after a claim found fewer jobs than it asked for, once a job ends.
    if (running.size && (drained || free < Math.max(1, concurrency >> 1))) {
      await Promise.race(running);
      drained = false;
      continue;
    }
    const want = Math.min(free, max - ran);
    if (want <= 0) break;
    const batch = await host.claim(want);
    drained = batch.length < want;
    if (!batch.length && !running.size) break;
    for (const job of batch) {
      const p: Promise<void> = runOne(job)
        .then((ok) => {
          if (!ok) return;
          finished.push(job.id);
          void flush();
        })
        .catch((err) => host.log.error({ err, jobId: job.id }, 'job loop failed'))
        .finally(() => running.delete(p));
      running.add(p);
    }
    ran += batch.length;
  }
  await Promise.all(running);
  while (flushing || finished.length) await (flushing ?? flush());
  return ran;
}

/** The latest dead jobs (operators' view and tests). */
export function deadJobsOf(db: Db, limit: number) {
  return rows<{ id: string; queue: string; last_error: string | null; attempts: number; updated_at: Date }>(
    db,
    sql`SELECT id::text AS id, queue, last_error, attempts, updated_at FROM jobs WHERE status = 'dead' ORDER BY id DESC LIMIT ${limit}`,
  );
}
