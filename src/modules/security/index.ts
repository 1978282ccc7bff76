import { defineModule } from '../../http/registry.js';
import { securityOperations } from './operations.js';
import { loginFailedRoute, notMeRoutes } from '../../http/routes/security.js';
import { registerSecurityJobs } from './jobs.js';

/** The security module: what the composition root (modules/index.ts) registers for it. */
export const securityModule = defineModule({
  name: 'security',
  operations: securityOperations,
  jobs: [registerSecurityJobs],
  routes: [loginFailedRoute, notMeRoutes],
});
