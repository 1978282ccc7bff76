/**
 * What other modules may use of the vtu module. Modules reach one another only through these files
 * (checked by dependency-cruiser); everything else in the folder is the module's own.
 */
export { NETWORK_NAMES, assertRecipientNetwork } from './service.js';
export type { VtuServiceApi } from './service.js';
export { CABLE_PROVIDERS, DISCOS } from './inputs.js';
