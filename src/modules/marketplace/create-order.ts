import { sql } from 'drizzle-orm';
import { one, type Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { prefixedId, uuid } from '../../kernel/ids.js';
import { formatNaira } from '../../kernel/money.js';
import type { Work } from '../../platform/change.js';
import type { WalletLimits } from '../wallet/api.js';
import { holdOrderMoney } from '../orders/api.js';
import { getProduct, ORDER_COLS, orderView, PRODUCT_COLS, type Delivery, type OrderRow, type ProductRow } from './views.js';

export interface CreateOrderDeps {
  db: Db;
  clock: Clock;
  work: Work;
  walletLimits: WalletLimits;
}

/**
 * Debits the wallet and reserves stock in one transaction. The conditional UPDATE is the stock check: two
 * buyers of the last item both run it, the row lock orders them, and the second finds stock < quantity.
 */
export async function createMarketplaceOrder(
  deps: CreateOrderDeps,
  user: { id: string; kycTier: number },
  input: { productId: string; quantity: number; delivery: Delivery; amount?: bigint },
) {
  const { db, clock } = deps;
  return db.transaction(async (tx) => {
    const reserved = await one<ProductRow>(
      tx,
      sql`UPDATE marketplace_products SET stock = stock - ${input.quantity}, updated_at = ${clock.now()}
          WHERE id = ${input.productId} AND active AND stock >= ${input.quantity} RETURNING ${PRODUCT_COLS}`,
    );
    if (!reserved) {
      const p = await getProduct(tx, input.productId);
      if (!p) throw notFound('Product');
      if (!p.active) throw new AppError('CONFLICT', 'This product is not available any more');
      throw new AppError('OUT_OF_STOCK', p.stock === 0 ? `${p.name} is out of stock` : `Only ${p.stock} of ${p.name} left in stock`);
    }
    const unitPrice = BigInt(reserved.price);
    const amount = unitPrice * BigInt(input.quantity);
    if (input.amount !== undefined && input.amount !== amount) {
      throw new AppError('PRICE_CHANGED', `The order now costs ${formatNaira(amount)}; confirm the new price`);
    }
    const id = uuid();
    const reference = prefixedId('mko', clock.now().getTime());
    const now = clock.now();
    await tx.execute(sql`INSERT INTO marketplace_orders (id, reference, user_id, product_id, product_name, unit_price, quantity, amount, delivery, status, created_at, updated_at)
                         VALUES (${id}, ${reference}, ${user.id}, ${reserved.id}, ${reserved.name}, ${unitPrice}, ${input.quantity}, ${amount},
                                 ${JSON.stringify(input.delivery)}::jsonb, 'processing', ${now}, ${now})`);
    await holdOrderMoney(deps, tx, {
      userId: user.id,
      kycTier: user.kycTier,
      amount,
      reference,
      type: 'marketplace_order',
      description: `Marketplace order: ${input.quantity} x ${reserved.name}`,
    });
    return orderView((await one<OrderRow>(tx, sql`SELECT ${ORDER_COLS} FROM marketplace_orders WHERE id = ${id}`))!);
  });
}
