import { bigint, bigserial, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Typed view of migration 0702 (transaction reports and public issue reports). */
export const transactionReports = pgTable(
  'transaction_reports',
  {
    id: uuid('id').primaryKey(),
    seq: bigserial('seq', { mode: 'bigint' }).notNull(),
    userId: uuid('user_id').notNull(),
    reference: text('reference').notNull(),
    transactionType: text('transaction_type').notNull(),
    amount: bigint('amount', { mode: 'bigint' }),
    category: text('category').notNull(),
    description: text('description').notNull(),
    status: text('status').notNull(), // open | resolved
    resolutionNote: text('resolution_note'),
    resolvedBy: uuid('resolved_by'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('transaction_reports_user_idx').on(t.userId, t.seq), index('transaction_reports_status_idx').on(t.status, t.seq)],
);

export const issueReports = pgTable('issue_reports', {
  id: uuid('id').primaryKey(),
  seq: bigserial('seq', { mode: 'bigint' }).notNull(),
  message: text('message').notNull(),
  stack: text('stack'),
  url: text('url'),
  userAgent: text('user_agent'),
  appVersion: text('app_version'),
  ipHash: text('ip_hash'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});
