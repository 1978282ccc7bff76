import { sql } from 'drizzle-orm';
import { rows, type Db } from '../db/client.js';
import { z } from 'zod';
import { HOUR, type Clock } from '../kernel/clock.js';
import type { JobQueue } from './queue.js';

/** Finished jobs deleted per statement by the retention clean-up. */
export const JOB_CLEANUP_BATCH = 5000;

/**
 * Registers the platform's own clean-ups: the Idempotency-Key claims (kept `idempotencyTtlMs`, the transport's
 * promise to clients) and OTP codes, and the queue's finished jobs. The modules' jobs are registered by the
 * composition root from their entry files.
 */
export function registerPlatformJobs(
  { jobs, db, clock, retentionHours }: { jobs: JobQueue; db: Db; clock: Clock; retentionHours: number },
  idempotencyTtlMs: number,
) {
  jobs.register({
    name: 'idempotency.cleanup',
    payload: z.object({}),
    handler: async () => {
      await db.execute(sql`DELETE FROM idempotency_keys WHERE created_at < ${new Date(clock.now().getTime() - idempotencyTtlMs)}`);
      await db.execute(sql`DELETE FROM otp_codes WHERE created_at < ${new Date(clock.now().getTime() - 2 * idempotencyTtlMs)}`);
    },
  });
  jobs.schedule({ job: 'idempotency.cleanup', everyMs: HOUR });
  // Finished jobs are kept JOBS_RETENTION_HOURS (for inspection), then deleted in batches; dead letters stay.
  const retentionMs = retentionHours * HOUR;
  jobs.register({
    name: 'jobs.cleanup',
    payload: z.object({}),
    handler: async () => {
      if (!retentionMs) return;
      const before = new Date(clock.now().getTime() - retentionMs);
      for (let i = 0; i < 100; i++) {
        const gone = await rows(
          db,
          sql`DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE status = 'done' AND updated_at < ${before} LIMIT ${JOB_CLEANUP_BATCH}) RETURNING 1 AS x`,
        );
        if (gone.length < JOB_CLEANUP_BATCH) break;
      }
    },
  });
  jobs.schedule({ job: 'jobs.cleanup', everyMs: HOUR });
}
