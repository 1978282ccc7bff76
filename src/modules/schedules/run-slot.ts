import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { uuid } from '../../kernel/ids.js';
import { formatNaira, toNaira } from '../../kernel/money.js';
import type { RunDeps, ScheduleDeps } from './deps.js';
import { COLS, PAUSE_AFTER_FAILURES, type ScheduleRow } from './model.js';

/** A run's failure: the run and the schedule record it (pausing it after PAUSE_AFTER_FAILURES in a row) with the notice. */
async function fail({ db, clock, work }: ScheduleDeps, scheduleId: string, runId: string, code: string, message: string) {
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

/** Runs one slot through the same purchase path as buyAirtime/buyData; the (schedule, slot) row makes it once. */
export async function runSlot(deps: RunDeps, scheduleId: string, slotIso: string): Promise<'ran' | 'duplicate' | 'gone'> {
  const { db, clock, log } = deps;
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

  const user = await deps.account(s.user_id);
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
    await fail(deps, s.id, runId, code, message);
    return 'ran';
  }
}
