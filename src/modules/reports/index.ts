import { defineModule } from '../../platform/module.js';
import { createReportsService, type ReportsService } from './service.js';
import { reportOperations } from './operations.js';

/** The reports module: what it needs, what it provides and what the composition root (services.ts) registers for it. */
export const reportsModule = defineModule({
  name: 'reports',
  needs: ['config', 'db', 'replica', 'clock', 'notifier'],
  provides: ['reports'],
  create: ({ config, db, replica, clock, notifier }) => ({
    reports: createReportsService({ db, replica, clock, notifier, ipSalt: config.secrets.fileSigningSecret }),
  }),
  operations: reportOperations,
});

declare module '../../platform/services.js' {
  interface Services {
    reports: ReportsService;
  }
}
