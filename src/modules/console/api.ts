/**
 * What other modules (and /metrics) may use of the console module. Modules reach one another only through these files
 * (checked by dependency-cruiser); everything else in the folder is the module's own.
 */
export { FLOAT_CODES, balancesStatement } from './dashboard.js';
