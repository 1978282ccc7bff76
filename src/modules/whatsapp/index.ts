import { HOUR } from '../../kernel/clock.js';
import { defineModule } from '../../platform/module.js';
import type { Services } from '../../platform/services.js';
import { whatsappOperations } from './operations.js';
import { resultJobPayload, WHATSAPP_RESULT_JOB } from './purchase.js';
import { createWhatsappService, type WhatsappService } from './service.js';

const FORGET_JOB = 'whatsapp.forgetOld';

function registerWhatsappJobs(services: Pick<Services, 'jobs' | 'whatsapp'>) {
  services.jobs.register({
    name: WHATSAPP_RESULT_JOB,
    payload: resultJobPayload,
    maxAttempts: 5,
    handler: async (p) => services.whatsapp.lookAgain(p),
  });
  services.jobs.register({
    name: FORGET_JOB,
    payload: resultJobPayload.pick({}),
    maxAttempts: 3,
    handler: () => services.whatsapp.forgetOld(),
  });
  services.jobs.schedule({ job: FORGET_JOB, everyMs: HOUR });
}

/** The WhatsApp assistant (issue 46): the Cloud API's webhook on the same wallet, PIN and purchase path as the app. */
export const whatsappModule = defineModule({
  name: 'whatsapp',
  needs: ['db', 'clock', 'log', 'config', 'jobs', 'work', 'vtu', 'pins', 'wallet', 'beneficiaries', 'settings', 'customers', 'upstream'],
  provides: ['whatsapp'],
  create: (deps) => ({ whatsapp: createWhatsappService(deps) }),
  operations: whatsappOperations,
  jobs: [registerWhatsappJobs],
});

declare module '../../platform/services.js' {
  interface Services {
    /** The WhatsApp assistant: the Cloud API's webhook in, its messages out. */
    whatsapp: WhatsappService;
  }
}
