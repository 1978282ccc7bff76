import { defineModule } from '../../http/registry.js';
import { reportOperations } from './operations.js';
import { reportIssueRoute } from '../../http/routes/report-issue.js';

/** The reports module: what the composition root (modules/index.ts) registers for it. */
export const reportsModule = defineModule({
  name: 'reports',
  operations: reportOperations,
  routes: [reportIssueRoute],
});
