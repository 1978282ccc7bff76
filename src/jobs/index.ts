import { moduleScope } from '../platform/module.js';
import { sql } from 'drizzle-orm';
import { rows } from '../db/client.js';
import { z } from 'zod';
import type { Services } from '../platform/services.js';
import { HOUR } from '../kernel/clock.js';
import { IDEMPOTENCY_TTL_MS } from '../http/idempotency.js';
import { allModules } from '../modules/index.js';

/** Finished jobs deleted per statement by the retention clean-up. */
export const JOB_CLEANUP_BATCH = 5000;

/** Registers the platform's own jobs, then every module's (their entry files list them). */
export function registerJobs(services: Services) {
  const { jobs, db, clock } = services;
  jobs.register({
    name: 'idempotency.cleanup',
    payload: z.object({}),
    handler: async () => {
      await db.execute(sql`DELETE FROM idempotency_keys WHERE created_at < ${new Date(clock.now().getTime() - IDEMPOTENCY_TTL_MS)}`);
      await db.execute(sql`DELETE FROM otp_codes WHERE created_at < ${new Date(clock.now().getTime() - 2 * IDEMPOTENCY_TTL_MS)}`);
    },
  });
  jobs.schedule({ job: 'idempotency.cleanup', everyMs: HOUR });
  // Finished jobs are kept JOBS_RETENTION_HOURS (for inspection), then deleted in batches; dead letters stay.
  const retentionMs = services.config.jobsRetentionHours * HOUR;
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
  for (const m of allModules) for (const r of m.jobs ?? []) r(moduleScope(m, services));
}
