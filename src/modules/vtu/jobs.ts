import { z } from 'zod';
import type { Services } from '../../platform/services.js';

/**
 * Reconciliation (docs/design.md §7): every VTU_RECONCILE_EVERY_MS (5 s in the sandbox) requery processing purchases
 * that are due, with backoff per transaction. It is also the start-up recovery: a purchase left processing by a
 * killed process is due again and settles here, always with its original request id.
 */
export const RECONCILE_JOB = 'vtu.reconcile';

export function registerVtuJobs(services: Pick<Services, 'jobs' | 'vtu' | 'config'>) {
  services.jobs.register({
    name: RECONCILE_JOB,
    payload: z.object({}),
    maxAttempts: 3,
    handler: async () => {
      await services.vtu.reconcileDue();
    },
  });
  services.jobs.schedule({ job: RECONCILE_JOB, everyMs: services.config.vtu.reconcileEveryMs });
}
