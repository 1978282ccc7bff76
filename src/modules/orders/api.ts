/**
 * What other modules may use of the orders module. Modules reach one another only through these files
 * (checked by dependency-cruiser); everything else in the folder is the module's own.
 */
export { holdOrderMoney } from './money.js';
export { createOrderStore } from './store.js';
export { createOrderTransitions } from './transition.js';
export type { OrderKind } from './transition.js';
