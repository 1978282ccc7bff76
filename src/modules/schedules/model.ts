import type { schedules } from './schema.js';
import type { Narrowed, RowOf } from '../../db/rows.js';
import { sql } from 'drizzle-orm';
import { one, type Executor } from '../../db/client.js';
import { notFound } from '../../kernel/errors.js';
import { toNaira } from '../../kernel/money.js';
import type { Network } from '../../kernel/phone.js';
import type { Frequency } from './slots.js';

export const MAX_SCHEDULES_PER_USER = 20;
/** After this many failed runs in a row the schedule pauses itself (and says so in the notification). */
export const PAUSE_AFTER_FAILURES = 3;
export const RUN_JOB = 'schedules.run';
export const DISPATCH_JOB = 'schedules.dispatch';

/** A schedule as its statements return it (COLS). */
export type ScheduleRow = Narrowed<
  Pick<
    RowOf<typeof schedules>,
    | 'id'
    | 'user_id'
    | 'service'
    | 'network'
    | 'phone'
    | 'plan_id'
    | 'amount'
    | 'ported'
    | 'frequency'
    | 'time_of_day'
    | 'day_of_week'
    | 'day_of_month'
    | 'label'
    | 'active'
    | 'next_run_at'
    | 'last_run_at'
    | 'last_status'
    | 'last_error'
    | 'consecutive_failures'
    | 'created_at'
    | 'updated_at'
  >,
  { service: 'airtime' | 'data'; network: Network; frequency: Frequency }
> & { last_purchase_id: string | null };

export interface ScheduleInput {
  id?: string;
  service: 'airtime' | 'data';
  network: Network;
  phone: string;
  planId?: string;
  amount: number;
  ported?: boolean;
  frequency: Frequency;
  time: string;
  dayOfWeek?: number;
  dayOfMonth?: number;
  label?: string;
  active?: boolean;
}

// The purchase of the last run that made one, while the schedule's last status is processing (withLastStatus).
const LAST_PURCHASE = `CASE WHEN last_status = 'processing' THEN (SELECT r.vtu_transaction_id::text FROM schedule_runs r
     WHERE r.schedule_id = schedules.id AND r.vtu_transaction_id IS NOT NULL ORDER BY r.slot DESC LIMIT 1) END`;
export const COLS = sql.raw(
  `id::text AS id, user_id::text AS user_id, service, network, phone, plan_id, amount::text AS amount, ported, frequency, time_of_day,
   day_of_week, day_of_month, label, active, next_run_at, last_run_at, last_status, ${LAST_PURCHASE} AS last_purchase_id, last_error,
   consecutive_failures, created_at, updated_at`,
);
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
/** A schedule's recurrence, as slots.ts reads it. */
export const recurrence = (s: Pick<ScheduleRow, 'frequency' | 'time_of_day' | 'day_of_week' | 'day_of_month'>) => ({
  frequency: s.frequency,
  time: s.time_of_day,
  dayOfWeek: s.day_of_week,
  dayOfMonth: s.day_of_month,
});

/** What the customer sees of a schedule. */
export function scheduleView(s: ScheduleRow) {
  return {
    id: s.id,
    service: s.service,
    network: s.network,
    phone: s.phone,
    planId: s.plan_id,
    amount: toNaira(s.amount),
    ported: s.ported,
    frequency: s.frequency,
    time: s.time_of_day,
    dayOfWeek: s.day_of_week,
    dayOfMonth: s.day_of_month,
    label: s.label,
    active: s.active,
    nextRunAt: iso(s.next_run_at),
    lastRunAt: iso(s.last_run_at),
    lastStatus: s.last_status,
    lastError: s.last_error,
    createdAt: new Date(s.created_at).toISOString(),
    updatedAt: new Date(s.updated_at).toISOString(),
  };
}

/** The caller's own schedule (NOT_FOUND for another's). */
export async function getOwn(exec: Executor, userId: string, id: string) {
  const s = await one<ScheduleRow>(exec, sql`SELECT ${COLS} FROM schedules WHERE id = ${id}`);
  // Another user's schedule is NOT_FOUND, never FORBIDDEN (docs/design.md §4).
  if (!s || s.user_id !== userId) throw notFound('Schedule');
  return s;
}
