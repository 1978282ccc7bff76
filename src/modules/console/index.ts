import { defineModule } from '../../platform/module.js';
import { consoleOperations } from './operations.js';
import { createConsoleService, registerConsoleJobs } from './service.js';

/** The operator console (issue 30): dashboard panels, operator jobs with progress, CSV exports behind signed URLs. */
export const consoleModule = defineModule({
  name: 'console',
  needs: ['config', 'db', 'replica', 'clock', 'log', 'jobs', 'storage', 'payments', 'vtu', 'identity'],
  provides: ['operatorConsole'],
  create: (deps) => ({ operatorConsole: createConsoleService(deps) }),
  operations: consoleOperations,
  jobs: [registerConsoleJobs],
});
