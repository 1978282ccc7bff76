import { defineModule } from '../../platform/module.js';
import { createReportsService, type ReportsService } from './service.js';
import { reportOperations } from './operations.js';

/** The reports module: what it needs, what it provides and what the composition root (services.ts) registers for it. */
export const reportsModule = defineModule({
  name: 'reports',
  needs: ['config', 'db', 'replica', 'clock', 'work'],
  provides: ['reports'],
  create: ({ config, db, replica, clock, work }) => ({
    reports: createReportsService({ db, replica, clock, work, ipSalt: config.secrets.fileSigningSecret }),
  }),
  operations: reportOperations,
});

declare module '../../platform/services.js' {
  interface Services {
    reports: ReportsService;
  }
}
