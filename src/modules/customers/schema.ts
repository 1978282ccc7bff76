import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Typed view of migration 1020: a frozen customer, one row while frozen (issue 30). */
export const accountFreezes = pgTable('account_freezes', {
  userId: uuid('user_id').primaryKey(),
  reason: text('reason').notNull(),
  frozenBy: uuid('frozen_by'),
  frozenAt: timestamp('frozen_at', { withTimezone: true }).notNull(),
});
