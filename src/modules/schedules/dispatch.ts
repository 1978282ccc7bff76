import { sql } from 'drizzle-orm';
import { one, rows } from '../../db/client.js';
import type { ScheduleDeps } from './deps.js';
import { COLS, recurrence, RUN_JOB, type ScheduleRow } from './model.js';
import { nextSlot } from './slots.js';

/**
 * Enqueues every due slot once. The conditional UPDATE moves next_run_at past now (several missed slots
 * collapse into one run, so a worker that was down does not buy a week of airtime at once) and only the
 * dispatcher whose UPDATE matched enqueues; the singleton key covers any remaining overlap. Answers the slots this
 * dispatcher moved (a slot whose job the singleton key found already there counts too).
 */
export async function dispatchDue({ db, clock, work }: ScheduleDeps, limit = 500): Promise<number> {
  const now = clock.now();
  const due = await rows<ScheduleRow>(
    db,
    sql`SELECT ${COLS} FROM schedules WHERE active AND next_run_at <= ${now} ORDER BY next_run_at LIMIT ${limit}`,
  );
  let enqueued = 0;
  for (const s of due) {
    const slot = new Date(s.next_run_at!);
    const next = nextSlot(recurrence(s), now);
    await db.transaction(async (tx) => {
      const moved = await one<{ id: string }>(
        tx,
        sql`UPDATE schedules SET next_run_at = ${next}, updated_at = ${now} WHERE id = ${s.id} AND active AND next_run_at = ${slot} RETURNING id::text AS id`,
      );
      if (!moved) return;
      const slotIso = slot.toISOString();
      await work
        .change(tx)
        .enqueue(RUN_JOB, { scheduleId: s.id, slot: slotIso }, { singletonKey: `schedule:${s.id}:${slotIso}`, maxAttempts: 1 })
        .commit();
      enqueued++;
    });
  }
  return enqueued;
}
