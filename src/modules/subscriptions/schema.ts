import { bigint, bigserial, boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Typed view of migration 0700 (subscription orders). Money columns are kobo. */
export const subscriptionPlans = pgTable('subscription_plans', {
  id: uuid('id').primaryKey(),
  service: text('service').notNull(),
  category: text('category').notNull(), // streaming | social
  name: text('name').notNull(),
  price: bigint('price', { mode: 'bigint' }).notNull(),
  active: boolean('active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

export const subscriptionOrders = pgTable(
  'subscription_orders',
  {
    id: uuid('id').primaryKey(),
    seq: bigserial('seq', { mode: 'bigint' }).notNull(),
    reference: text('reference').notNull().unique(),
    userId: uuid('user_id').notNull(),
    planId: uuid('plan_id').notNull(),
    service: text('service').notNull(),
    category: text('category').notNull(),
    planName: text('plan_name').notNull(),
    account: text('account').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    status: text('status').notNull(), // pending | processing | fulfilled | failed | cancelled
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('subscription_orders_user_idx').on(t.userId, t.createdAt),
    index('subscription_orders_status_idx').on(t.status, t.createdAt),
  ],
);
