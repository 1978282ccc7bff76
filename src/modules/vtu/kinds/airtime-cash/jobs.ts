import { z } from 'zod';
import type { JobQueue } from '../../../../jobs/queue.js';
import type { Config } from '../../../../config.js';
import type { AirtimeCashService } from './service.js';

/**
 * Every VTU_RECONCILE_EVERY_MS, requery the awaiting airtime-to-cash requests that are due (each backs off up to 10
 * minutes): a receipt the webhook never brought is found here, and requests nothing reached expire.
 */
export const AIRTIME_CASH_RECONCILE_JOB = 'airtimeCash.reconcile';

export function registerAirtimeCashJobs(services: { jobs: JobQueue; airtimeCash: AirtimeCashService; config: Config }) {
  services.jobs.register({
    name: AIRTIME_CASH_RECONCILE_JOB,
    payload: z.object({}),
    maxAttempts: 3,
    handler: async () => {
      await services.airtimeCash.reconcileDue();
    },
  });
  services.jobs.schedule({ job: AIRTIME_CASH_RECONCILE_JOB, everyMs: services.config.vtu.reconcileEveryMs });
}
