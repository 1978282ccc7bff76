import { sql } from 'drizzle-orm';
import { one, rows } from '../../db/client.js';
import { notFound } from '../../kernel/errors.js';
import type { ScheduleDeps } from './deps.js';
import { withLastStatus } from './last-status.js';
import { COLS, getOwn, MAX_SCHEDULES_PER_USER, recurrence, scheduleView, type ScheduleRow } from './model.js';
import { nextSlot } from './slots.js';

/** The caller's schedules, newest first. */
export async function list({ db }: ScheduleDeps, userId: string) {
  const list = await rows<ScheduleRow>(
    db,
    sql`SELECT ${COLS} FROM schedules WHERE user_id = ${userId} ORDER BY seq DESC LIMIT ${MAX_SCHEDULES_PER_USER}`,
  );
  return { items: (await withLastStatus(db, list)).map(scheduleView) };
}

/** Resuming starts from the next slot after now (missed slots are not bought) and clears the failure count. */
export async function toggle({ db, clock }: ScheduleDeps, userId: string, id: string, active: boolean) {
  const s = await getOwn(db, userId, id);
  const now = clock.now();
  const next = active ? nextSlot(recurrence(s), now) : null;
  const r = await one<ScheduleRow>(
    db,
    sql`UPDATE schedules SET active = ${active}, next_run_at = ${next}, consecutive_failures = CASE WHEN ${active} THEN 0 ELSE consecutive_failures END,
          updated_at = ${now} WHERE id = ${id} AND user_id = ${userId} RETURNING ${COLS}`,
  );
  if (!r) throw notFound('Schedule');
  return scheduleView((await withLastStatus(db, [r]))[0]!);
}

/** Deletes one of the caller's schedules (NOT_FOUND for another's). */
export async function remove({ db }: ScheduleDeps, userId: string, id: string) {
  const r = await one<{ id: string }>(db, sql`DELETE FROM schedules WHERE id = ${id} AND user_id = ${userId} RETURNING id::text AS id`);
  if (!r) throw notFound('Schedule');
  return { deleted: true };
}
