import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Services } from '../services.js';
import { HOUR } from '../lib/clock.js';
import { IDEMPOTENCY_TTL_MS } from '../http/idempotency.js';
import { registerSecurityJobs } from '../modules/security/jobs.js';
import { registerNotificationJobs } from '../modules/notifications/delivery.js';
import { registerGrowthJobs } from '../modules/growth/jobs.js';
import { registerPaymentsJobs } from '../modules/payments/jobs.js';
import { registerVtuJobs } from '../modules/vtu/jobs.js';
import { registerScheduleJobs } from '../modules/schedules/jobs.js';

/** Registers every job and schedule. A module adds its registrar to moduleJobs. */
export type JobRegistrar = (services: Services) => void;
export const moduleJobs: JobRegistrar[] = [registerNotificationJobs, registerGrowthJobs, registerPaymentsJobs, registerVtuJobs, registerScheduleJobs];
moduleJobs.push(registerSecurityJobs);

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
  for (const r of moduleJobs) r(services);
}
