/**
 * What other modules may use of the savings module. Modules reach one another only through these files
 * (checked by dependency-cruiser); everything else in the folder is the module's own.
 */
export { createSavingsService, registerSavingsJobs } from './service.js';
export type { SavingsService } from './service.js';
