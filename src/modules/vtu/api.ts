/**
 * What other modules may use of the vtu module. Modules reach one another only through these files
 * (checked by dependency-cruiser); everything else in the folder is the module's own.
 */
export { NETWORK_NAMES, assertRecipientNetwork } from './service.js';
/** The kinds' names in purchase notices, per language (the composition root hands it to the notifications' wording). */
export { serviceName } from './kinds/index.js';
export type { VtuServiceApi } from './service.js';
export { CABLE_PROVIDERS, DISCOS } from './inputs.js';
/** The purchases as other modules read them (vtu_transactions is read raw only inside vtu/). */
export { outcomesOf, providerBurn, providerOutcomes, purchaseVolume, receiptOf, stuckPurchases } from './read-model.js';
export type { PurchaseReceipt, PurchaseStatus } from './read-model.js';
