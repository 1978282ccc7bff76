import type { schedules } from './schema.js';
import type { Narrowed, RowOf } from '../../db/rows.js';
import { sql } from 'drizzle-orm';
import { one, rows, type Db, type Executor } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import type { Clock } from '../../kernel/clock.js';
import { uuid } from '../../kernel/ids.js';
import type { Logger } from '../../lib/logger.js';
import { formatNaira, toKobo, toNaira } from '../../kernel/money.js';
import type { Network } from '../../kernel/phone.js';
import { lockUser } from '../identity/api.js';
import type { Work } from '../../platform/change.js';
import { assertRecipientNetwork, NETWORK_NAMES, outcomesOf, type VtuServiceApi } from '../vtu/api.js';
import { withLastStatus } from './last-status.js';
import { nextSlot, type Frequency } from './slots.js';

export const MAX_SCHEDULES_PER_USER = 20;
/** After this many failed runs in a row the schedule pauses itself (and says so in the notification). */
export const PAUSE_AFTER_FAILURES = 3;
export const RUN_JOB = 'schedules.run';
export const DISPATCH_JOB = 'schedules.dispatch';

type ScheduleRow = Narrowed<
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
const COLS = sql.raw(
  `id::text AS id, user_id::text AS user_id, service, network, phone, plan_id, amount::text AS amount, ported, frequency, time_of_day,
   day_of_week, day_of_month, label, active, next_run_at, last_run_at, last_status, ${LAST_PURCHASE} AS last_purchase_id, last_error,
   consecutive_failures, created_at, updated_at`,
);
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const recurrence = (s: Pick<ScheduleRow, 'frequency' | 'time_of_day' | 'day_of_week' | 'day_of_month'>) => ({
  frequency: s.frequency,
  time: s.time_of_day,
  dayOfWeek: s.day_of_week,
  dayOfMonth: s.day_of_month,
});

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

export type ScheduleService = ReturnType<typeof createScheduleService>;

/**
 * Scheduled purchases (docs/design.md §10): the PIN is checked when the schedule is saved (operation gate), never at
 * run time. Each due slot is claimed twice over: the dispatcher advances next_run_at with a conditional UPDATE
 * and enqueues the run with a deterministic singleton key (`schedule:<id>:<slot>`), and the run itself inserts
 * the (schedule, slot) row before buying; so with any number of workers a slot buys at most once.
 */
export function createScheduleService(deps: { db: Db; clock: Clock; log: Logger; work: Work; vtu: () => VtuServiceApi }) {
  const { db, clock, log, work } = deps;

  const getOwn = async (exec: Executor, userId: string, id: string) => {
    const s = await one<ScheduleRow>(exec, sql`SELECT ${COLS} FROM schedules WHERE id = ${id}`);
    // Another user's schedule is NOT_FOUND, never FORBIDDEN (docs/design.md §4).
    if (!s || s.user_id !== userId) throw notFound('Schedule');
    return s;
  };

  /** Save-time checks, so a schedule that can never run is refused up front (spec rule 5 for the network). */
  async function validate(input: ScheduleInput) {
    assertRecipientNetwork(input.network, input.phone, input.ported);
    if (input.service === 'data') {
      const plans = await deps.vtu().dataPlans(input.network);
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

  async function fail(scheduleId: string, runId: string, code: string, message: string) {
    await db.transaction(async (tx) => {
      const now = clock.now();
      await tx.execute(
        sql`UPDATE schedule_runs SET status = 'failed', error_code = ${code}, error_message = ${message}, updated_at = ${now} WHERE id = ${runId}`,
      );
      const s = await one<ScheduleRow>(
        tx,
        sql`UPDATE schedules SET consecutive_failures = consecutive_failures + 1, last_run_at = ${now}, last_status = 'failed', last_error = ${message}, updated_at = ${now},
              active = CASE WHEN consecutive_failures + 1 >= ${PAUSE_AFTER_FAILURES} THEN false ELSE active END,
              next_run_at = CASE WHEN consecutive_failures + 1 >= ${PAUSE_AFTER_FAILURES} THEN NULL ELSE next_run_at END
            WHERE id = ${scheduleId} RETURNING ${COLS}`,
      );
      if (!s) return;
      const what = s.service === 'airtime' ? `${formatNaira(BigInt(s.amount))} airtime` : `data (${s.plan_id})`;
      await work
        .change(tx)
        .notify({
          userId: s.user_id,
          kind: 'schedule_failed',
          title: 'Scheduled purchase failed',
          body: `Your scheduled ${what} for ${s.phone} did not go through: ${message}${s.active ? '' : ` The schedule is paused after ${PAUSE_AFTER_FAILURES} failures in a row; resume it when fixed.`}`,
          data: {
            scheduleId,
            runId,
            code,
            paused: !s.active,
            service: s.service,
            phone: s.phone,
            ...(s.active ? {} : { failures: PAUSE_AFTER_FAILURES }),
          },
        })
        .commit();
    });
  }

  return {
    async list(userId: string) {
      const list = await rows<ScheduleRow>(
        db,
        sql`SELECT ${COLS} FROM schedules WHERE user_id = ${userId} ORDER BY seq DESC LIMIT ${MAX_SCHEDULES_PER_USER}`,
      );
      return { items: (await withLastStatus(db, list)).map(scheduleView) };
    },

    async upsert(userId: string, input: ScheduleInput) {
      await validate(input);
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
    },

    /** Resuming starts from the next slot after now (missed slots are not bought) and clears the failure count. */
    async toggle(userId: string, id: string, active: boolean) {
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
    },

    async remove(userId: string, id: string) {
      const r = await one<{ id: string }>(db, sql`DELETE FROM schedules WHERE id = ${id} AND user_id = ${userId} RETURNING id::text AS id`);
      if (!r) throw notFound('Schedule');
      return { deleted: true };
    },

    /**
     * Enqueues every due slot once. The conditional UPDATE moves next_run_at past now (several missed slots
     * collapse into one run, so a worker that was down does not buy a week of airtime at once) and only the
     * dispatcher whose UPDATE matched enqueues; the singleton key covers any remaining overlap. Answers the slots this
     * dispatcher moved (a slot whose job the singleton key found already there counts too).
     */
    async dispatchDue(limit = 500): Promise<number> {
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
    },

    /** Runs one slot through the same purchase path as buyAirtime/buyData; the (schedule, slot) row makes it once. */
    async runSlot(scheduleId: string, slotIso: string): Promise<'ran' | 'duplicate' | 'gone'> {
      const s = await one<ScheduleRow>(db, sql`SELECT ${COLS} FROM schedules WHERE id = ${scheduleId}`);
      if (!s || !s.active) return 'gone';
      const now = clock.now();
      const runId = uuid();
      const claimed = await one<{ id: string }>(
        db,
        sql`INSERT INTO schedule_runs (id, schedule_id, user_id, slot, status, created_at, updated_at)
            VALUES (${runId}, ${s.id}, ${s.user_id}, ${new Date(slotIso)}, 'running', ${now}, ${now})
            ON CONFLICT (schedule_id, slot) DO NOTHING RETURNING id::text AS id`,
      );
      if (!claimed) return 'duplicate';

      const user = await one<{ kyc_tier: number; status: string; frozen: boolean }>(
        db,
        sql`SELECT kyc_tier, status, EXISTS (SELECT 1 FROM account_freezes z WHERE z.user_id = users.id) AS frozen FROM users WHERE id = ${s.user_id}`,
      );
      if (!user || user.status !== 'active') {
        await db.execute(
          sql`UPDATE schedule_runs SET status = 'skipped', error_code = 'ACCOUNT_CLOSED', updated_at = ${now} WHERE id = ${runId}`,
        );
        return 'ran';
      }
      // Issue 30: a frozen account's schedules pause: the slot is skipped, not failed (no failure count, no notice;
      // the freeze itself told the customer), and the next slot after the unfreeze runs as usual.
      if (user.frozen) {
        await db.execute(
          sql`UPDATE schedule_runs SET status = 'skipped', error_code = 'ACCOUNT_FROZEN', error_message = 'The account is frozen', updated_at = ${now} WHERE id = ${runId}`,
        );
        return 'ran';
      }
      const amount = toNaira(s.amount);
      try {
        const purchaser = { id: s.user_id, kycTier: user.kyc_tier };
        // A scheduled run is no request: it marks no Idempotency-Key claim (the run row guards it).
        const tx =
          s.service === 'airtime'
            ? await deps.vtu().purchase(purchaser, 'airtime', { network: s.network, phone: s.phone, amount, ported: s.ported })
            : await deps
                .vtu()
                .purchase(purchaser, 'data', { network: s.network, phone: s.phone, plan_id: s.plan_id!, amount, ported: s.ported });
        const done = clock.now();
        await db.transaction(async (t) => {
          await t.execute(
            sql`UPDATE schedule_runs SET status = ${tx.status}, vtu_transaction_id = ${tx.id}, updated_at = ${done} WHERE id = ${runId}`,
          );
          // A provider failure after the debit is refunded and notified by the VTU area (purchase_failed).
          await t.execute(sql`UPDATE schedules SET last_run_at = ${done}, last_status = ${tx.status}, last_error = ${tx.failureReason ?? null},
                                consecutive_failures = 0, updated_at = ${done} WHERE id = ${s.id}`);
        });
        return 'ran';
      } catch (err) {
        // Refusals before any debit (insufficient funds, network mismatch, price changed, limits, KYC) end the
        // run as failed and tell the user; nothing was charged. Unknown errors are logged, never retried.
        const code = err instanceof AppError ? err.code : 'INTERNAL';
        const message = err instanceof AppError ? err.message : 'The purchase could not be started; we will try again at the next slot.';
        if (!(err instanceof AppError)) log.error({ err, scheduleId, slot: slotIso }, 'scheduled purchase failed unexpectedly');
        await fail(s.id, runId, code, message);
        return 'ran';
      }
    },

    async listRuns(userId: string, scheduleId: string, limit: number, offset: number) {
      await getOwn(db, userId, scheduleId);
      type Run = { id: string; slot: Date; status: string; vtu_transaction_id: string | null; created_at: Date };
      const list = await rows<Run & { error_code: string | null; error_message: string | null }>(
        db,
        sql`SELECT id::text AS id, slot, status, vtu_transaction_id::text AS vtu_transaction_id, error_code, error_message, created_at
            FROM schedule_runs WHERE schedule_id = ${scheduleId} ORDER BY slot DESC LIMIT ${limit + 1} OFFSET ${offset}`,
      );
      // A run's purchase, read only when the run still waits on it or it holds the reason: its status and failure.
      const waiting = list.slice(0, limit).filter((r) => r.vtu_transaction_id && (r.status === 'processing' || r.error_message === null));
      const v = await outcomesOf(db, [...new Set(waiting.map((r) => r.vtu_transaction_id!))]);
      return {
        items: list.slice(0, limit).map((r) => ({
          id: r.id,
          slot: new Date(r.slot).toISOString(),
          status: r.status === 'processing' ? (v.get(r.vtu_transaction_id!)?.status ?? r.status) : r.status,
          transactionId: r.vtu_transaction_id,
          errorCode: r.error_code,
          errorMessage: r.error_message ?? v.get(r.vtu_transaction_id!)?.failureReason ?? null,
          createdAt: new Date(r.created_at).toISOString(),
        })),
        limit,
        offset,
        hasMore: list.length > limit,
      };
    },
  };
}
