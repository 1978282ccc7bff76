/**
 * What other modules may use of the loans module. Modules reach one another only through these files
 * (checked by dependency-cruiser); everything else in the folder is the module's own.
 */
export { createLoanService } from './service.js';
export { registerLoanJobs } from './jobs.js';
export type { LoanService } from './service.js';
