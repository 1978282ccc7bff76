import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { uuid } from '../../kernel/ids.js';
import { formatNaira, toKobo } from '../../kernel/money.js';
import { lockUser } from '../identity/api.js';
import { assertRecipientNetwork, NETWORK_NAMES } from '../vtu/api.js';
import type { ScheduleDeps } from './deps.js';
import { withLastStatus } from './last-status.js';
import { COLS, getOwn, MAX_SCHEDULES_PER_USER, scheduleView, type ScheduleInput, type ScheduleRow } from './model.js';
import { nextSlot } from './slots.js';

/** Save-time checks, so a schedule that can never run is refused up front (spec rule 5 for the network). */
async function validate(vtu: ScheduleDeps['vtu'], userId: string, input: ScheduleInput) {
  assertRecipientNetwork(input.network, input.phone, input.ported);
  if (input.service === 'data') {
    const plans = await vtu().dataPlans(input.network, undefined, userId);
    const plan = plans.find((p) => p.plan_id === input.planId);
    if (!plan) {
      throw new AppError(
        'VALIDATION_FAILED',
        `planId ${input.planId} is not a current ${NETWORK_NAMES[input.network]} data plan; list the plans again`,
        {
          issues: [{ path: 'planId', message: 'unknown plan' }],
        },
      );
    }
    if (toKobo(plan.price) !== toKobo(input.amount))
      throw new AppError('PRICE_CHANGED', `${plan.name} costs ${formatNaira(toKobo(plan.price))}; save the schedule with that amount`);
  }
}

/** Saves a schedule: a new one (at most MAX_SCHEDULES_PER_USER a customer) or, with `id`, the caller's own. */
export async function upsert({ db, clock, vtu }: ScheduleDeps, userId: string, input: ScheduleInput) {
  await validate(vtu, userId, input);
  const now = clock.now();
  const active = input.active ?? true;
  const rec = {
    frequency: input.frequency,
    time: input.time,
    dayOfWeek: input.dayOfWeek ?? null,
    dayOfMonth: input.dayOfMonth ?? null,
  };
  const next = active ? nextSlot(rec, now) : null;
  const amount = toKobo(input.amount);
  return db.transaction(async (tx) => {
    if (input.id) {
      await getOwn(tx, userId, input.id);
      const s = await one<ScheduleRow>(
        tx,
        sql`UPDATE schedules SET service = ${input.service}, network = ${input.network}, phone = ${input.phone}, plan_id = ${input.planId ?? null},
              amount = ${amount}, ported = ${input.ported ?? false}, frequency = ${input.frequency}, time_of_day = ${input.time},
              day_of_week = ${rec.dayOfWeek}, day_of_month = ${rec.dayOfMonth}, label = ${input.label ?? null}, active = ${active},
              next_run_at = ${next}, consecutive_failures = 0, updated_at = ${now}
            WHERE id = ${input.id} RETURNING ${COLS}`,
      );
      return { schedule: scheduleView((await withLastStatus(tx, [s!]))[0]!), created: false };
    }
    // Count under the user's row lock so concurrent creates cannot pass the cap.
    await lockUser(tx, userId);
    const count = await one<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM schedules WHERE user_id = ${userId}`);
    if ((count?.n ?? 0) >= MAX_SCHEDULES_PER_USER)
      throw new AppError('CONFLICT', `You can keep at most ${MAX_SCHEDULES_PER_USER} schedules; delete one first`);
    const id = uuid();
    const s = await one<ScheduleRow>(
      tx,
      sql`INSERT INTO schedules (id, user_id, service, network, phone, plan_id, amount, ported, frequency, time_of_day, day_of_week, day_of_month,
                                 label, active, next_run_at, created_at, updated_at)
          VALUES (${id}, ${userId}, ${input.service}, ${input.network}, ${input.phone}, ${input.planId ?? null}, ${amount}, ${input.ported ?? false},
                  ${input.frequency}, ${input.time}, ${rec.dayOfWeek}, ${rec.dayOfMonth}, ${input.label ?? null}, ${active}, ${next}, ${now}, ${now})
          RETURNING ${COLS}`,
    );
    return { schedule: scheduleView(s!), created: true };
  });
}
