import { defineModule } from '../../platform/module.js';
import { createVtuService, type VtuServiceApi } from './service.js';
import { vtuOperations } from './operations.js';
import { registerVtuJobs } from './jobs.js';
import { inboundRoutingProblem } from './kinds/index.js';

/** The vtu module: what it needs, what it provides and what the composition root (services.ts) registers for it. */
export const vtuModule = defineModule({
  name: 'vtu',
  needs: ['config', 'db', 'replica', 'clock', 'log', 'ledger', 'walletLimits', 'events', 'work', 'jobs', 'vtuProviders'],
  provides: ['vtu'],
  // VTU_ROUTING: a provider an inbound kind has no adapter for, or its key misspelled, refuses the start.
  check: (config) => inboundRoutingProblem(config.vtu.routing),
  create: ({ vtuProviders, ...deps }) => ({ vtu: createVtuService({ ...deps, providers: vtuProviders }) }),
  operations: vtuOperations,
  jobs: [registerVtuJobs],
});

declare module '../../platform/services.js' {
  interface Services {
    /** VTU purchases, catalogues, reconciliation; purchase() is reused by scheduled purchases. */
    vtu: VtuServiceApi;
  }
}
