import type { marketplaceOrders as marketplaceOrdersTable } from './schema.js';
import type { marketplaceProducts } from './schema.js';
import type { Narrowed, RowOf } from '../../db/rows.js';
import { sql } from 'drizzle-orm';
import { one, rows, type Db, type Executor } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { page } from '../../kernel/paging.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { Clock } from '../../kernel/clock.js';
import { prefixedId, uuid } from '../../kernel/ids.js';
import { formatNaira, toNaira } from '../../kernel/money.js';
import type { Notifier } from '../notifications/api.js';
import type { WalletLimits } from '../wallet/api.js';
import { holdOrderMoney } from '../orders/api.js';
import { createOrderStore } from '../orders/api.js';
import { createOrderTransitions, type OrderKind } from '../orders/api.js';

export interface Delivery {
  fullName: string;
  phone: string;
  address: string;
  city: string;
  state: string;
  note?: string;
}

type ProductRow = Pick<
  RowOf<typeof marketplaceProducts>,
  'id' | 'name' | 'description' | 'price' | 'stock' | 'active' | 'created_at' | 'updated_at'
>;

type OrderRow = Narrowed<
  Pick<
    RowOf<typeof marketplaceOrdersTable>,
    | 'id'
    | 'reference'
    | 'user_id'
    | 'product_id'
    | 'product_name'
    | 'unit_price'
    | 'quantity'
    | 'amount'
    | 'delivery'
    | 'status'
    | 'note'
    | 'created_at'
    | 'updated_at'
  >,
  { delivery: Delivery; status: 'processing' | 'fulfilled' | 'cancelled' }
>;

const PRODUCT_COLS = sql.raw(`id::text AS id, name, description, price::text AS price, stock, active, created_at, updated_at`);
const ORDER_COLS = sql.raw(
  `id::text AS id, reference, user_id::text AS user_id, product_id::text AS product_id, product_name, unit_price::text AS unit_price,
   quantity, amount::text AS amount, delivery, status, note, created_at, updated_at`,
);

export function productView(p: ProductRow) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    price: toNaira(p.price),
    stock: p.stock,
    active: p.active,
    createdAt: new Date(p.created_at).toISOString(),
    updatedAt: new Date(p.updated_at).toISOString(),
  };
}

export function orderView(o: OrderRow) {
  return {
    id: o.id,
    reference: o.reference,
    productId: o.product_id,
    productName: o.product_name,
    unitPrice: toNaira(o.unit_price),
    quantity: o.quantity,
    amount: toNaira(o.amount),
    delivery: o.delivery,
    status: o.status,
    note: o.note,
    createdAt: new Date(o.created_at).toISOString(),
    updatedAt: new Date(o.updated_at).toISOString(),
  };
}

export type MarketplaceService = ReturnType<typeof createMarketplaceService>;

type MarketplaceStatus = 'processing' | 'fulfilled' | 'cancelled';

/** Marketplace orders are paid when placed (processing); an operator fulfils or cancels them. */
const marketplaceOrders: OrderKind<MarketplaceStatus, OrderRow> = {
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

export function createMarketplaceService(deps: { db: Db; clock: Clock; ledger: Ledger; walletLimits: WalletLimits; notifier: Notifier }) {
  const { db, clock, ledger, notifier } = deps;
  const transition = createOrderTransitions({ db, ledger, notifier, clock });
  // A cancelled order's items go back on the shelf in the refund's transaction.
  const orders: OrderKind<MarketplaceStatus, OrderRow> = {
    ...marketplaceOrders,
    afterRefund: async (tx, o) => {
      await tx.execute(
        sql`UPDATE marketplace_products SET stock = stock + ${o.quantity}, updated_at = ${clock.now()} WHERE id = ${o.product_id}`,
      );
    },
  };

  const getProduct = (exec: Executor, id: string) =>
    one<ProductRow>(exec, sql`SELECT ${PRODUCT_COLS} FROM marketplace_products WHERE id = ${id}`);
  const store = createOrderStore(db, marketplaceOrders, orderView);
  const getOrder = store.get;

  return {
    async createProduct(input: { name: string; description?: string | null; price: bigint; stock: number; active?: boolean }) {
      const id = uuid();
      const now = clock.now();
      await db.execute(sql`INSERT INTO marketplace_products (id, name, description, price, stock, active, created_at, updated_at)
                           VALUES (${id}, ${input.name}, ${input.description ?? null}, ${input.price}, ${input.stock}, ${input.active ?? true}, ${now}, ${now})`);
      return productView((await getProduct(db, id))!);
    },

    /** Only the given fields change; stock is set absolutely (operators count the shelf), never below zero. */
    async updateProduct(
      id: string,
      patch: { name?: string; description?: string | null; price?: bigint; stock?: number; active?: boolean },
    ) {
      const r = await one<ProductRow>(
        db,
        sql`UPDATE marketplace_products SET
              name = COALESCE(${patch.name ?? null}, name),
              description = CASE WHEN ${patch.description !== undefined} THEN ${patch.description ?? null} ELSE description END,
              price = COALESCE(${patch.price ?? null}::bigint, price),
              stock = COALESCE(${patch.stock ?? null}::integer, stock),
              active = COALESCE(${patch.active ?? null}::boolean, active),
              updated_at = ${clock.now()}
            WHERE id = ${id} RETURNING ${PRODUCT_COLS}`,
      );
      if (!r) throw notFound('Product');
      return productView(r);
    },

    async listProducts(opts: { includeInactive: boolean; limit: number; offset: number }) {
      const list = await rows<ProductRow>(
        db,
        sql`SELECT ${PRODUCT_COLS} FROM marketplace_products WHERE (${opts.includeInactive} OR active)
            ORDER BY created_at DESC, id DESC LIMIT ${opts.limit + 1} OFFSET ${opts.offset}`,
      );
      return page(list.map(productView), opts.limit, opts.offset);
    },

    /**
     * Debits the wallet and reserves stock in one transaction. The conditional UPDATE is the stock check: two
     * buyers of the last item both run it, the row lock orders them, and the second finds stock < quantity.
     */
    async createOrder(
      user: { id: string; kycTier: number },
      input: { productId: string; quantity: number; delivery: Delivery; amount?: bigint },
    ) {
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
        return orderView((await getOrder(tx, id))!);
      });
    },

    listMyOrders: store.listMine,

    /** Another user's order is NOT_FOUND, never FORBIDDEN (docs/design.md §4). */
    getMyOrder: store.getMine,

    adminListOrders: store.adminList,

    /**
     * processing -> fulfilled (money to revenue) or cancelled (refund, stock returned), through the orders'
     * state machine (orders/transition.ts).
     */
    async adminUpdateOrder(actorId: string, input: { id: string; status: 'fulfilled' | 'cancelled'; note?: string }) {
      const o = await transition(orders, actorId, input);
      return { ...orderView(o), userId: o.user_id };
    },
  };
}
