import { sql } from 'drizzle-orm';
import { one, type Db } from '../../db/client.js';
import type { ScheduleDeps } from './deps.js';
import { dispatchDue } from './dispatch.js';
import type { ScheduleInput } from './model.js';
import { list, remove, toggle } from './my-schedules.js';
import { runSlot } from './run-slot.js';
import { listRuns } from './runs.js';
import { upsert } from './save-schedule.js';

export { DISPATCH_JOB, MAX_SCHEDULES_PER_USER, PAUSE_AFTER_FAILURES, RUN_JOB, scheduleView } from './model.js';
export type { ScheduleInput } from './model.js';

export type ScheduleService = ReturnType<typeof createScheduleService>;

/** The buyer's account as a run checks it: tier, status and whether it is frozen (identity's and customers' tables). */
const accountOf = (db: Db, userId: string) =>
  one<{ kyc_tier: number; status: string; frozen: boolean }>(
    db,
    sql`SELECT kyc_tier, status, EXISTS (SELECT 1 FROM account_freezes z WHERE z.user_id = users.id) AS frozen FROM users WHERE id = ${userId}`,
  );

/**
 * Scheduled purchases (docs/design.md §10): the PIN is checked when the schedule is saved (operation gate), never at
 * run time. Each due slot is claimed twice over: the dispatcher advances next_run_at with a conditional UPDATE
 * and enqueues the run with a deterministic singleton key (`schedule:<id>:<slot>`), and the run itself inserts
 * the (schedule, slot) row before buying; so with any number of workers a slot buys at most once.
 */
export function createScheduleService(deps: ScheduleDeps) {
  const runDeps = { ...deps, account: (userId: string) => accountOf(deps.db, userId) };
  return {
    list: (userId: string) => list(deps, userId),
    upsert: (userId: string, input: ScheduleInput) => upsert(deps, userId, input),
    /** Resuming starts from the next slot after now (missed slots are not bought) and clears the failure count. */
    toggle: (userId: string, id: string, active: boolean) => toggle(deps, userId, id, active),
    remove: (userId: string, id: string) => remove(deps, userId, id),
    /** Enqueues every due slot once (dispatch.ts); answers the slots this dispatcher moved. */
    dispatchDue: (limit?: number) => dispatchDue(deps, limit),
    /** Runs one slot through the same purchase path as buyAirtime/buyData; the (schedule, slot) row makes it once. */
    runSlot: (scheduleId: string, slotIso: string) => runSlot(runDeps, scheduleId, slotIso),
    listRuns: (userId: string, scheduleId: string, limit: number, offset: number) => listRuns(deps, userId, scheduleId, limit, offset),
  };
}
