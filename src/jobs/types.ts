import type { z } from 'zod';
import type { BatchLane } from './lanes.js';

/** What a job, a schedule and an enqueue request declare (the queue itself: queue.ts). */
export interface JobDef<P extends z.ZodType = z.ZodType> {
  name: string;
  payload: P;
  maxAttempts?: number;
  /** Base backoff; attempt n waits base * 2^(n-1). */
  backoffMs?: number;
  /**
   * Due jobs are claimed highest priority first (default 0), then oldest due first: money that arrived (webhook
   * credits) goes ahead of the notifications it produces. Strict, as in pg-boss: a lower priority waits while
   * higher ones are due, which only lasts while the workers are short of capacity for the urgent work alone.
   */
  priority?: number;
  handler: (payload: z.infer<P>, meta: { attempt: number; jobId: string }) => Promise<void>;
  /**
   * A queue worked in batches by lanes of its own (webhook credits): up to `size` due jobs claimed at once and given
   * to `handler`, which answers each item's error (null: done), so one failing item fails only its own job. Lanes
   * run beside the general loop, wake on nudge() and poll every `idleMs` otherwise.
   */
  batch?: {
    size: number;
    lanes?: number;
    idleMs?: number;
    /** `lane.offTurn` runs a wait on another machine without the background turn (lanes.ts BatchLane). */
    handler: (items: { payload: z.infer<P>; attempt: number; maxAttempts: number; jobId: string }[], lane: BatchLane) => Promise<unknown[]>;
  };
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

/** One job for enqueueMany: what enqueue() takes, as data. */
export interface JobRequest {
  name: string;
  payload: unknown;
  opts?: EnqueueOptions;
}
