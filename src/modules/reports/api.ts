/**
 * What other modules may use of the reports module. Modules reach one another only through these files
 * (checked by dependency-cruiser); everything else in the folder is the module's own.
 */
export { openTransactionReports } from './waiting.js';
/** A customer's reports of a reference, and resolving them with their thread (issue 44). */
export { reportsAbout, reportsOf, resolveReports, type LinkedReport } from './linked.js';
