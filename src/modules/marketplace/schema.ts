import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Typed view of migration 0700 (marketplace). Money columns are kobo. */
export const marketplaceProducts = pgTable(
  'marketplace_products',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    price: bigint('price', { mode: 'bigint' }).notNull(),
    stock: integer('stock').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('marketplace_products_active_idx').on(t.active, t.createdAt)],
);

export const marketplaceOrders = pgTable(
  'marketplace_orders',
  {
    id: uuid('id').primaryKey(),
    seq: bigserial('seq', { mode: 'bigint' }).notNull(),
    reference: text('reference').notNull().unique(),
    userId: uuid('user_id').notNull(),
    productId: uuid('product_id').notNull(),
    productName: text('product_name').notNull(),
    unitPrice: bigint('unit_price', { mode: 'bigint' }).notNull(),
    quantity: integer('quantity').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    delivery: jsonb('delivery').notNull(),
    status: text('status').notNull(), // processing | fulfilled | cancelled
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('marketplace_orders_user_idx').on(t.userId, t.createdAt), index('marketplace_orders_status_idx').on(t.status, t.createdAt)],
);
