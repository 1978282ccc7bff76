/**
 * What other modules may use of the epins module (recharge cards, issue 45). Modules reach one another only through
 * these files (checked by dependency-cruiser); everything else in the folder is the module's own.
 */
/** An e-PIN price (a level's discount off the face value): what approvals' `price_setting` changes with `change: 'epin'`. */
export type { EpinPriceApprovals, EpinPriceSetting } from './price-admin.js';
export { epinSettingOf, epinSettingPayload } from './price-admin.js';
/** The delivered cards' profit by Lagos day and level, beside vtu's purchases' (the console's profit view and daily e-mail). */
export { epinProfitByDay } from './profit-reads.js';
