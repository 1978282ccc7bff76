/**
 * What other modules may use of the payments module. Modules reach one another only through these files
 * (checked by dependency-cruiser); everything else in the folder is the module's own.
 */
export { TOPUP_MAX_NAIRA, TOPUP_MIN_NAIRA } from './service.js';
export type { PaymentsService } from './service.js';
/**
 * The console's waiting work: top-ups still pending after a few minutes, ones paid a different amount, and withdrawals
 * still pending with the processor.
 */
export { stuckWithdrawals, topupProblems } from './waiting.js';
/** The settlements' references by id: the approvals' settlement corrections name the top-up they correct (issue 44). */
export { settlementReferences } from './admin-search.js';
