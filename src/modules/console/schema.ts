import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Typed view of migration 1030_console.sql: long operator actions (issue 30) and their progress. */
export const operatorJobs = pgTable(
  'operator_jobs',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    status: text('status').notNull(),
    input: jsonb('input').notNull(),
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total').notNull().default(0),
    result: jsonb('result'),
    error: text('error'),
    fileKey: text('file_key'),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('operator_jobs_created_idx').on(t.createdAt, t.id)],
);

/** A system account's balance through one of its entries (migration 1030): the dashboard adds the entries after it. */
export const accountBalanceSnapshots = pgTable('account_balance_snapshots', {
  accountId: bigint('account_id', { mode: 'bigint' }).primaryKey(),
  throughId: bigint('through_id', { mode: 'bigint' }).notNull(),
  balance: bigint('balance', { mode: 'bigint' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** Migration 1102: whether a channel (ussd, whatsapp) is on; a missing row means on (issue 46). */
export const channelSettings = pgTable('channel_settings', {
  channel: text('channel').primaryKey(),
  enabled: boolean('enabled').notNull(),
  updatedBy: uuid('updated_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** Typed view of migration 1275: the operators' alerts that hold now (issue 44, alerts.ts). */
export const operatorAlerts = pgTable('operator_alerts', {
  key: text('key').primaryKey(),
  raisedAt: timestamp('raised_at', { withTimezone: true }).notNull(),
  title: text('title').notNull(),
});
