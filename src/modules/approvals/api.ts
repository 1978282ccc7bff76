/**
 * What other modules may use of the approvals module. Modules reach one another only through these files
 * (checked by dependency-cruiser); everything else in the folder is the module's own.
 */
export { approvalOutput, submissionFields } from './inputs.js';
export type { ApprovalService, ApprovalRequestInput } from './service.js';
/** The console's waiting work: requests a second operator can still decide. */
export { pendingApprovals } from './waiting.js';
