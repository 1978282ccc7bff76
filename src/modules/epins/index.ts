import { defineModule } from '../../platform/module.js';
import { createEpinProvider } from '../../providers/epins.js';
import { epinsOperations } from './operations.js';
import { registerEpinJobs } from './requery.js';
import { createEpinsService, type EpinsService } from './service.js';

/** Recharge card printing (issue 45): batches of airtime e-PINs bought from the e-PIN seller, printed as cards. */
export const epinsModule = defineModule({
  name: 'epins',
  needs: ['db', 'clock', 'config', 'work', 'walletLimits', 'vtu', 'upstream', 'jobs'],
  provides: ['epins'],
  create: ({ db, clock, config, work, walletLimits, vtu, upstream }) => ({
    epins: createEpinsService({
      db,
      clock,
      work,
      walletLimits,
      levels: vtu.levels,
      provider: config.epins ? createEpinProvider(config.epins, upstream.send, config.vtu.timeoutMs) : null,
      secretKey: config.secrets.dataEncryptionKey,
    }),
  }),
  operations: epinsOperations,
  jobs: [registerEpinJobs],
});

declare module '../../platform/services.js' {
  interface Services {
    /** Recharge cards (e-PIN batches), issue 45. */
    epins: EpinsService;
  }
}
