import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Typed view of migration 0703 (signed receipts). */
export const receipts = pgTable('receipts', {
  id: uuid('id').primaryKey(),
  needle: text('needle').notNull().unique(),
  userId: uuid('user_id').notNull(),
  reference: text('reference').notNull(),
  payload: jsonb('payload').notNull(),
  signature: text('signature').notNull(),
  keyId: text('key_id').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});
