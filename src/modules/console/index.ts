import { defineModule } from '../../platform/module.js';
import { registerAlerts } from './alerts.js';
import { caseOperations } from './case-operations.js';
import { registerDailySummary } from './daily-summary.js';
import { consoleOperations } from './operations.js';
import { profitOperations } from './profit-operations.js';
import { createConsoleService, registerConsoleJobs, type ConsoleService } from './service.js';

/** The operator console (issue 30): dashboard panels, operator jobs with progress, CSV exports behind signed URLs. */
export const consoleModule = defineModule({
  name: 'console',
  needs: [
    'config',
    'db',
    'replica',
    'clock',
    'log',
    'jobs',
    'work',
    'storage',
    'payments',
    'vtu',
    'identity',
    'outbox',
    'operators',
    'operationRoles',
  ],
  provides: ['operatorConsole'],
  create: (deps) => ({ operatorConsole: createConsoleService(deps) }),
  operations: [...consoleOperations, ...profitOperations, ...caseOperations],
  jobs: [registerConsoleJobs, registerDailySummary, registerAlerts],
});

declare module '../../platform/services.js' {
  interface Services {
    /** The operator console (issue 30): dashboard panels and operator jobs (reconciliation, requery, exports). */
    operatorConsole: ConsoleService;
  }
}
