import { defineModule } from '../../platform/module.js';
import { createApprovalService } from './service.js';
import { approvalOperations } from './operations.js';

/** The approvals module (issue 30): four-eyes on operators' money actions; it runs them through payments and VTU. */
export const approvalsModule = defineModule({
  name: 'approvals',
  needs: ['db', 'clock', 'payments', 'vtu', 'operators'],
  provides: ['approvals'],
  create: (deps) => ({ approvals: createApprovalService(deps) }),
  operations: approvalOperations,
});
