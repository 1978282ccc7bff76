import { index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { kobo, ts } from '../../db/columns.js';

/** Typed view of the savings locks of migration 0600 (growth, savings and loans). */
export const savingsLocks = pgTable(
  'savings_locks',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    principalKobo: kobo('principal_kobo').notNull(),
    days: integer('days').notNull(),
    rateBps: integer('rate_bps').notNull(),
    breakFeeBps: integer('break_fee_bps').notNull(),
    interestKobo: kobo('interest_kobo').notNull(),
    status: text('status').notNull().default('active'),
    payoutKobo: kobo('payout_kobo'),
    feeKobo: kobo('fee_kobo'),
    createdAt: ts('created_at').notNull(),
    maturesAt: ts('matures_at').notNull(),
    closedAt: ts('closed_at'),
  },
  (t) => [index('savings_locks_user_idx').on(t.userId, t.createdAt)],
);
