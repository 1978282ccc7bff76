import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { kobo, ts } from '../../db/columns.js';

/** Typed view of the loans of migration 0600 (growth, savings and loans). */
export const loans = pgTable(
  'loans',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    principalKobo: kobo('principal_kobo').notNull(),
    feeKobo: kobo('fee_kobo').notNull(),
    lateFeeKobo: kobo('late_fee_kobo').notNull().default(0n),
    repaidKobo: kobo('repaid_kobo').notNull().default(0n),
    status: text('status').notNull().default('open'),
    createdAt: ts('created_at').notNull(),
    dueAt: ts('due_at').notNull(),
    overdueAt: ts('overdue_at'),
    repaidAt: ts('repaid_at'),
    lastRemindedAt: ts('last_reminded_at'),
  },
  (t) => [index('loans_user_idx').on(t.userId, t.createdAt)],
);
