import { defineModule } from '../../platform/module.js';
import { createVtuService, type VtuServiceApi } from './service.js';
import { vtuOperations } from './operations.js';
import { registerVtuJobs } from './jobs.js';
import { inboundRoutingProblem } from './kinds/index.js';
import { LEVELS_CHANNEL } from './customer-levels.js';
import { ROUTING_PAYLOAD } from './routing.js';
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
    // One channel for both copies: a customer's id drops their level, 'routing' the operators' routing (migration 1300).
    const vtuLevelChanges = await database.subscribe(LEVELS_CHANNEL, {
      message: (payload) => (payload === ROUTING_PAYLOAD ? vtu.routes.forget() : vtu.levels.forgetCustomer(payload)),
      reset: () => {
        vtu.levels.forgetCustomer('');
        vtu.routes.forget();
      },
    });
    vtu.levels.attachCustomers(vtuLevelChanges.live);
    vtu.routes.attach(vtuLevelChanges.live);
    return { vtu, vtuLevelChanges };
  },
  operations: vtuOperations,
  jobs: [registerVtuJobs],
});

declare module '../../platform/services.js' {
  interface Services {
    /** VTU purchases, catalogues, reconciliation; purchase() is reused by scheduled purchases. */
    vtu: VtuServiceApi;
    /** Drops an instance's copy of a customer's price level, or of the routing, when any instance changes it (migrations 1295, 1300). */
    vtuLevelChanges: Subscription;
  }
}
