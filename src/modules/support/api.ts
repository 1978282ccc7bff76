/**
 * What other modules may use of the support module. Modules reach one another only through these files
 * (checked by dependency-cruiser); everything else in the folder is the module's own.
 */
export { openSupportThreads } from './waiting.js';
/** The threads about a reference (its customer's, naming it), and closing them with a report (issue 44). */
export { aboutKey, closeThreadsAbout, threadsAbout, type LinkedThread } from './linked.js';
