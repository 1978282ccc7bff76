import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { formatNaira } from '../../kernel/money.js';
import type { Work } from '../../platform/change.js';
import { createOrderTransitions, type OrderKind } from '../orders/api.js';
import { ORDER_COLS, orderView, type OrderRow } from './views.js';

type MarketplaceStatus = 'processing' | 'fulfilled' | 'cancelled';

/** Marketplace orders are paid when placed (processing); an operator fulfils or cancels them. */
export const marketplaceOrders: OrderKind<MarketplaceStatus, OrderRow> = {
  table: 'marketplace_orders',
  subject: 'marketplace_order',
  label: 'Order',
  columns: ORDER_COLS,
  transitions: { processing: ['fulfilled', 'cancelled'], fulfilled: [], cancelled: [] },
  money: (to) => (to === 'cancelled' ? 'refund' : to === 'fulfilled' ? 'settle' : null),
  describe: (o, to) =>
    to === 'cancelled' ? `Refund: marketplace order ${o.reference} cancelled` : `Marketplace order ${o.reference} fulfilled`,
  conflict: (current) => `Order is already ${current}`,
  notice: (o, to, note) =>
    to === 'fulfilled'
      ? { title: 'Order fulfilled', body: `Your order of ${o.quantity} x ${o.product_name} has been fulfilled.` }
      : {
          title: 'Order cancelled',
          body: `Your order of ${o.quantity} x ${o.product_name} was cancelled and ${formatNaira(BigInt(o.amount))} was refunded to your wallet.${note ? ` ${note}` : ''}`,
        },
};

/**
 * adminUpdateMarketplaceOrder: processing -> fulfilled (money to revenue) or cancelled (refund, stock returned),
 * through the orders' state machine (orders/transition.ts).
 */
export function createAdminUpdateMarketplaceOrder(deps: { db: Db; work: Work; clock: Clock }) {
  const transition = createOrderTransitions(deps);
  // A cancelled order's items go back on the shelf in the refund's transaction.
  const orders: OrderKind<MarketplaceStatus, OrderRow> = {
    ...marketplaceOrders,
    afterRefund: async (tx, o) => {
      await tx.execute(
        sql`UPDATE marketplace_products SET stock = stock + ${o.quantity}, updated_at = ${deps.clock.now()} WHERE id = ${o.product_id}`,
      );
    },
  };
  return async function adminUpdateMarketplaceOrder(
    actorId: string,
    input: { id: string; status: 'fulfilled' | 'cancelled'; note?: string },
  ) {
    const o = await transition(orders, actorId, input);
    return { ...orderView(o), userId: o.user_id };
  };
}
