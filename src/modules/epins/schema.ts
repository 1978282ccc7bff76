import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Typed view of migration 1240 (recharge card printing, issue 45). */
export const epinBatches = pgTable(
  'epin_batches',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    network: text('network').notNull(),
    denomination: bigint('denomination', { mode: 'bigint' }).notNull(),
    quantity: integer('quantity').notNull(),
    unitPrice: bigint('unit_price', { mode: 'bigint' }).notNull(),
    unitWholesale: bigint('unit_wholesale', { mode: 'bigint' }).notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    priceLevel: text('price_level').notNull(),
    businessName: text('business_name').notNull(),
    status: text('status').notNull(), // processing | delivered | partial | failed
    delivered: integer('delivered').notNull().default(0),
    refunded: bigint('refunded', { mode: 'bigint' }).notNull().default(0n),
    failureReason: text('failure_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    index('epin_batches_user_idx').on(t.userId, t.createdAt.desc()),
    index('epin_batches_processing_idx')
      .on(t.createdAt)
      .where(sql`status = 'processing'`),
  ],
);

export const epinCards = pgTable(
  'epin_cards',
  {
    batchId: text('batch_id')
      .notNull()
      .references(() => epinBatches.id),
    seq: integer('seq').notNull(),
    pinEncrypted: text('pin_encrypted').notNull(),
    serial: text('serial').notNull(),
    soldAt: timestamp('sold_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.seq] })],
);

/** Which price levels may buy e-PINs, and their discount off the face value (basis points). */
export const epinLevelPrices = pgTable('epin_level_prices', {
  level: text('level').primaryKey(),
  discount: integer('discount').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
