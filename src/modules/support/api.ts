/**
 * What other modules may use of the support module. Modules reach one another only through these files
 * (checked by dependency-cruiser); everything else in the folder is the module's own.
 */
export { openSupportThreads } from './waiting.js';
