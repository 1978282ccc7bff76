import { defineModule } from '../../platform/module.js';
import { createVtuService, type VtuServiceApi } from './service.js';
import { vtuOperations } from './operations.js';
import { registerVtuJobs } from './jobs.js';
import { inboundRoutingProblem } from './kinds/index.js';
import { LEVELS_CHANNEL } from './customer-levels.js';
import type { Subscription } from '../../db/client.js';

/** The vtu module: what it needs, what it provides and what the composition root (services.ts) registers for it. */
export const vtuModule = defineModule({
  name: 'vtu',
  needs: ['config', 'database', 'db', 'replica', 'clock', 'log', 'ledger', 'walletLimits', 'events', 'work', 'jobs', 'vtuProviders'],
  provides: ['vtu', 'vtuLevelChanges'],
  // VTU_ROUTING: a provider an inbound kind has no adapter for, or its key misspelled, refuses the start.
  check: (config) => inboundRoutingProblem(config.vtu.routing),
  async create({ vtuProviders, database, ...deps }) {
    const vtu = createVtuService({ ...deps, providers: vtuProviders });
    const vtuLevelChanges = await database.subscribe(LEVELS_CHANNEL, {
      message: (userId) => vtu.levels.forgetCustomer(userId),
      reset: () => vtu.levels.forgetCustomer(''),
    });
    vtu.levels.attachCustomers(vtuLevelChanges.live);
    return { vtu, vtuLevelChanges };
  },
  operations: vtuOperations,
  jobs: [registerVtuJobs],
});

declare module '../../platform/services.js' {
  interface Services {
    /** VTU purchases, catalogues, reconciliation; purchase() is reused by scheduled purchases. */
    vtu: VtuServiceApi;
    /** Drops an instance's copy of a customer's price level when any instance changes it (migration 1295). */
    vtuLevelChanges: Subscription;
  }
}
