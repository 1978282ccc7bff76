import { bigint, bigserial, boolean, index, integer, pgTable, smallint, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';

/** Typed view of migration 0704 (scheduled purchases). */
export const schedules = pgTable(
  'schedules',
  {
    id: uuid('id').primaryKey(),
    seq: bigserial('seq', { mode: 'bigint' }).notNull(),
    userId: uuid('user_id').notNull(),
    service: text('service').notNull(), // airtime | data
    network: text('network').notNull(),
    phone: text('phone').notNull(),
    planId: text('plan_id'),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    ported: boolean('ported').notNull().default(false),
    frequency: text('frequency').notNull(), // daily | weekly | monthly
    timeOfDay: text('time_of_day').notNull(), // HH:MM Africa/Lagos
    dayOfWeek: smallint('day_of_week'),
    dayOfMonth: smallint('day_of_month'),
    label: text('label'),
    active: boolean('active').notNull().default(true),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    lastStatus: text('last_status'),
    lastError: text('last_error'),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('schedules_user_idx').on(t.userId, t.seq), index('schedules_due_idx').on(t.nextRunAt)],
);

export const scheduleRuns = pgTable(
  'schedule_runs',
  {
    id: uuid('id').primaryKey(),
    scheduleId: uuid('schedule_id').notNull(),
    userId: uuid('user_id').notNull(),
    slot: timestamp('slot', { withTimezone: true }).notNull(),
    status: text('status').notNull(), // running | success | processing | failed | skipped
    vtuTransactionId: uuid('vtu_transaction_id'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [unique('schedule_runs_schedule_id_slot_key').on(t.scheduleId, t.slot)],
);
