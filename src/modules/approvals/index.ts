import { defineModule } from '../../platform/module.js';
import { createApprovalService, type ApprovalService } from './service.js';
import { approvalOperations } from './operations.js';

/** The approvals module (issue 30): four-eyes on operators' money actions; it runs them through payments and VTU. */
export const approvalsModule = defineModule({
  name: 'approvals',
  needs: ['db', 'clock', 'payments', 'vtu', 'operators', 'epins'],
  provides: ['approvals'],
  create: (deps) => ({ approvals: createApprovalService(deps) }),
  operations: approvalOperations,
});

declare module '../../platform/services.js' {
  interface Services {
    /** Four-eyes on operators' money actions (issue 30). */
    approvals: ApprovalService;
  }
}
