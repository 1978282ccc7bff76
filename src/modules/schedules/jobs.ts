import { z } from 'zod';
import { MINUTE } from '../../kernel/clock.js';
import type { Services } from '../../platform/services.js';
import { DISPATCH_JOB, RUN_JOB } from './service.js';

/** The dispatcher runs every minute (one per minute slot across instances); each due slot becomes one run job. */
export function registerScheduleJobs(services: Pick<Services, 'jobs' | 'schedules'>) {
  const { jobs, schedules } = services;
  jobs.register({
    name: DISPATCH_JOB,
    payload: z.object({}),
    handler: async () => {
      await schedules.dispatchDue();
    },
  });
  jobs.register({
    name: RUN_JOB,
    payload: z.object({ scheduleId: z.string().uuid(), slot: z.string().datetime() }),
    // A run is never retried: a failure is reported to the user and the next slot tries again.
    maxAttempts: 1,
    handler: async (p) => {
      await schedules.runSlot(p.scheduleId, p.slot);
    },
  });
  jobs.schedule({ job: DISPATCH_JOB, everyMs: MINUTE });
}
