/**
 * What other modules may use of the vtu module. Modules reach one another only through these files
 * (checked by dependency-cruiser); everything else in the folder is the module's own.
 */
export { NETWORK_NAMES, assertRecipientNetwork } from './service.js';
/** The kinds' names in purchase notices, per language (the composition root hands it to the notifications' wording). */
export { serviceName } from './kinds/index.js';
export type { VtuServiceApi } from './service.js';
/** A price level's price, a level, or a customer's level: what approvals' `price_setting` changes (issue 45). */
export type { PriceSetting } from './level-admin.js';
export { settingOf as priceSettingOf, settingPayload as priceSettingPayload } from './level-admin.js';
export { CABLE_PROVIDERS, DISCOS } from './inputs.js';
/** The purchases as other modules read them (vtu_transactions is read raw only inside vtu/). */
export {
  outcomesOf,
  processingPurchases,
  providerBurn,
  providerOutcomes,
  purchaseCounts,
  purchaseVolume,
  receiptOf,
  stuckPurchases,
} from './read-model.js';
export type { PurchaseReceipt, PurchaseStatus } from './read-model.js';
/** Issue 45: profit by Lagos day, service and level; purchases by API key and day; the customers above the default level. */
export { customersAboveBase, profitByDay, usageByKey } from './profit-reads.js';
/** Whether a customer's price level allows live API keys (developers' createKey). */
export { apiKeyLevel } from './levels.js';
export type { KeyUsageRow, ProfitRow } from './profit-reads.js';
/** The price levels as stored now, lowest rank first (for a module naming the levels its own rows record). */
export { readLevels as readPriceLevels } from './levels.js';
/** What the operators' screens read of the purchases: the search, the CSV export, the customer page. */
export {
  PURCHASE_CHANNELS,
  PURCHASE_SORTS,
  countPurchasesCreated,
  exportPurchasePage,
  purchaseSearchStatement,
  purchaseReferences,
  purchaserOf,
  recentPurchasesRead,
  searchPurchases,
} from './operator-reads.js';
export type { PurchaseChannel } from './repository.js';
export type { ExportedPurchase, FoundPurchase, PurchaseSearch, PurchaseSort, RecentPurchase } from './operator-reads.js';
