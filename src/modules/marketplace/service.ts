import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import type { Work } from '../../platform/change.js';
import type { WalletLimits } from '../wallet/api.js';
import { createOrderStore } from '../orders/api.js';
import { createMarketplaceOrder, type CreateOrderDeps } from './create-order.js';
import { createProduct, listProducts, updateProduct } from './products.js';
import { createAdminUpdateMarketplaceOrder, marketplaceOrders } from './update-order.js';
import { orderView } from './views.js';

export { orderView, productView, type Delivery } from './views.js';

export type MarketplaceService = ReturnType<typeof createMarketplaceService>;

/** The marketplace's use cases, each in its own file, bound to the module's dependencies. */
export function createMarketplaceService(deps: CreateOrderDeps & { db: Db; clock: Clock; work: Work; walletLimits: WalletLimits }) {
  const store = createOrderStore(deps.db, marketplaceOrders, orderView);
  return {
    createProduct: createProduct.bind(null, deps),
    updateProduct: updateProduct.bind(null, deps),
    listProducts: listProducts.bind(null, deps),
    createOrder: createMarketplaceOrder.bind(null, deps),
    listMyOrders: store.listMine,
    /** Another user's order is NOT_FOUND, never FORBIDDEN (docs/design.md §4). */
    getMyOrder: store.getMine,
    adminListOrders: store.adminList,
    adminUpdateOrder: createAdminUpdateMarketplaceOrder(deps),
  };
}
