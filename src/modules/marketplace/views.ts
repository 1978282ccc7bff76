import type { marketplaceOrders as marketplaceOrdersTable } from './schema.js';
import type { marketplaceProducts } from './schema.js';
import type { Narrowed, RowOf } from '../../db/rows.js';
import { sql } from 'drizzle-orm';
import { one, type Executor } from '../../db/client.js';
import { toNaira } from '../../kernel/money.js';

export interface Delivery {
  fullName: string;
  phone: string;
  address: string;
  city: string;
  state: string;
  note?: string;
}

export type ProductRow = Pick<
  RowOf<typeof marketplaceProducts>,
  'id' | 'name' | 'description' | 'price' | 'stock' | 'active' | 'created_at' | 'updated_at'
>;

export type OrderRow = Narrowed<
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

export const PRODUCT_COLS = sql.raw(`id::text AS id, name, description, price::text AS price, stock, active, created_at, updated_at`);
export const ORDER_COLS = sql.raw(
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

export const getProduct = (exec: Executor, id: string) =>
  one<ProductRow>(exec, sql`SELECT ${PRODUCT_COLS} FROM marketplace_products WHERE id = ${id}`);
