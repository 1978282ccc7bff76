/**
 * What other modules may use of the wallet module. Modules reach one another only through these files
 * (checked by dependency-cruiser); everything else in the folder is the module's own.
 */
export type { WalletLimits } from './limits.js';
export { referenceInput, topupIntentOutput } from './inputs.js';
