import { HOUR } from '../../kernel/clock.js';
import { defineModule } from '../../platform/module.js';
import type { Services } from '../../platform/services.js';
import { resultJobPayload, USSD_RESULT_JOB } from './purchase.js';
import { createUssdService, type UssdService } from './service.js';

const FORGET_JOB = 'ussd.forgetSessions';

function registerUssdJobs(services: Pick<Services, 'jobs' | 'ussd'>) {
  services.jobs.register({
    name: USSD_RESULT_JOB,
    payload: resultJobPayload,
    maxAttempts: 5,
    handler: async (p) => services.ussd.lookAgain(p),
  });
  services.jobs.register({
    name: FORGET_JOB,
    payload: resultJobPayload.pick({}),
    maxAttempts: 3,
    handler: () => services.ussd.forgetOldSessions(),
  });
  services.jobs.schedule({ job: FORGET_JOB, everyMs: HOUR });
}

/** The USSD menu (issue 46): Africa's Talking's callback on the same wallet, PIN and purchase path as the app. */
export const ussdModule = defineModule({
  name: 'ussd',
  needs: ['db', 'clock', 'log', 'config', 'jobs', 'work', 'vtu', 'pins', 'wallet', 'beneficiaries', 'settings', 'customers', 'outbox'],
  provides: ['ussd'],
  create: (deps) => ({ ussd: createUssdService(deps) }),
  operations: [],
  jobs: [registerUssdJobs],
});

declare module '../../platform/services.js' {
  interface Services {
    /** The USSD channel: one gateway callback in, one screen out. */
    ussd: UssdService;
  }
}
