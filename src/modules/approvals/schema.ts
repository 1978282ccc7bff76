import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Typed view of migration 1020: four-eyes requests (issue 30). */
export const approvalRequests = pgTable(
  'approval_requests',
  {
    id: text('id').primaryKey(),
    action: text('action').notNull(), // wallet_adjustment | vtu_resolution | settlement_correction
    status: text('status').notNull().default('pending'), // pending | approved | rejected
    makerId: uuid('maker_id').notNull(),
    makerReason: text('maker_reason').notNull(),
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    checkerId: uuid('checker_id'),
    decisionReason: text('decision_reason'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    result: jsonb('result'),
  },
  (t) => [
    index('approval_requests_status_idx').on(t.status, t.createdAt),
    index('approval_requests_subject_idx').on(t.subjectType, t.subjectId),
  ],
);

/** Per action: amounts below the threshold (kobo) take effect at once; a missing row means the default. */
export const approvalSettings = pgTable('approval_settings', {
  action: text('action').primaryKey(),
  threshold: bigint('threshold', { mode: 'bigint' }).notNull(),
  updatedBy: uuid('updated_by'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  /** A raised threshold with one admin (migration 1070): it replaces `threshold` at scheduled_at. */
  scheduledThreshold: bigint('scheduled_threshold', { mode: 'bigint' }),
  scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
  scheduledBy: uuid('scheduled_by'),
});

/** Money actions applied at once, per operator (migration 1070): the rolling 24-hour total under the threshold. */
export const approvalDirect = pgTable(
  'approval_direct',
  {
    id: text('id').primaryKey(),
    makerId: uuid('maker_id').notNull(),
    action: text('action').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('approval_direct_maker_idx').on(t.makerId, t.action, t.createdAt)],
);
