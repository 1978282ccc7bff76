import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Typed view of migration 1101 (the USSD menu's sessions, purchases and per-number rate). */
export const ussdSessions = pgTable(
  'ussd_sessions',
  {
    sessionId: text('session_id').primaryKey(),
    phone: text('phone').notNull(),
    userId: uuid('user_id').notNull(),
    step: integer('step').notNull(),
    state: jsonb('state').notNull(),
    screen: text('screen'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('ussd_sessions_updated_idx').on(t.updatedAt)],
);

export const ussdPurchases = pgTable(
  'ussd_purchases',
  {
    sessionId: text('session_id').notNull(),
    step: integer('step').notNull(),
    userId: uuid('user_id').notNull(),
    phone: text('phone').notNull(),
    language: text('language').notNull(),
    summary: text('summary').notNull(),
    transactionId: uuid('transaction_id'),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.step] })],
);

export const ussdRate = pgTable('ussd_rate', {
  phone: text('phone').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  hits: integer('hits').notNull(),
});
