import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client.js';
import { MINUTE, type Clock } from '../../kernel/clock.js';
import type { Logger } from '../../lib/logger.js';
import type { ChargeEvent, ProcessorAdapter, ProcessorRegistry } from '../../providers/processor.js';
import type { DedicatedAccounts } from './dedicated-accounts.js';
import type { Settlement } from './settlement.js';
import {
  ABANDON_AFTER_MS,
  DVA_RECONCILE_WINDOW_MS,
  INTENT_COLUMNS,
  RECONCILE_MIN_AGE_MS,
  RECONCILE_WINDOW_MS,
  type IntentRow,
  type IntentStatus,
} from './model.js';

/** What reconciliation uses. */
export interface ReconciliationDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  processors: ProcessorRegistry;
  adapterOf: (id: string) => ProcessorAdapter;
  settleCharge: Settlement['settleCharge'];
  creditDedicatedAccount: DedicatedAccounts['creditDedicatedAccount'];
}

/** A reconciliation run's options (reconcile). */
export type ReconcileOptions = { minAgeMs?: number; limit?: number; onProgress?: (done: number, total: number) => Promise<void> };

type Summary = { checked: number; settled: number; failed: number; abandoned: number; errors: number };

/**
 * Reconciliation (spec rule 8): verifies open top-ups with the processor (credits the paid ones, closes failed
 * and abandoned ones) and settles transfers into dedicated accounts that no webhook brought.
 */
export function createPaymentsReconciliation(deps: ReconciliationDeps) {
  return (opts: ReconcileOptions = {}) => reconcile(deps, opts);
}

/**
 * `limit` bounds the intents one run verifies (1000 for the scheduled job and adminRunReconciliation; an operator
 * job of the console asks for more); `onProgress` hears {done, total} as it goes (the job's progress bar). The
 * dedicated-account charges found afterwards add to the total.
 */
export async function reconcile(deps: ReconciliationDeps, opts: ReconcileOptions = {}) {
  const { db, clock, log } = deps;
  const now = clock.now();
  const summary: Summary = { checked: 0, settled: 0, failed: 0, abandoned: 0, errors: 0 };
  const open = await rows<IntentRow>(
    db,
    sql`SELECT ${INTENT_COLUMNS} FROM topup_intents
        WHERE status <> 'success'
          AND (checkout_url IS NOT NULL OR status = 'pending')
          AND created_at > ${new Date(now.getTime() - RECONCILE_WINDOW_MS)}
          AND created_at <= ${new Date(now.getTime() - (opts.minAgeMs ?? RECONCILE_MIN_AGE_MS))}
        ORDER BY created_at LIMIT ${opts.limit ?? 1000}`,
  );
  const run = { total: open.length };
  const progress = async () => opts.onProgress?.(summary.checked, run.total);
  await progress();
  for (const intent of open) {
    if (summary.checked > 0) await progress();
    summary.checked++;
    await reconcileIntent(deps, intent, now, summary);
  }
  await reconcileDedicatedTransfers(deps, now, summary, run);
  await progress();
  log.info({ ...summary }, 'payments reconciliation finished');
  return summary;
}

/** One open intent: verified with its processor, then credited, closed as failed or abandoned, or marked checked. */
async function reconcileIntent({ db, log, adapterOf, settleCharge }: ReconciliationDeps, intent: IntentRow, now: Date, summary: Summary) {
  let v;
  try {
    v = await adapterOf(intent.processor).verify(intent.reference);
  } catch (err) {
    summary.errors++;
    log.warn({ reference: intent.reference, err: (err as Error).message }, 'reconciliation could not verify a top-up');
    return;
  }
  if (v.status === 'success' && v.currency === 'NGN' && v.amount > 0n) {
    const credited = await db.transaction((tx) =>
      settleCharge(tx, {
        processor: intent.processor,
        reference: intent.reference,
        userId: intent.user_id,
        intentId: intent.id,
        kind: 'topup',
        amount: v.amount,
        channel: v.channel,
        paidAt: v.paidAt,
        source: 'reconciliation',
      }),
    );
    if (credited) summary.settled++;
    return;
  }
  let next: IntentStatus | null = null;
  if (v.status === 'failed' && intent.status !== 'failed') next = 'failed';
  else if (intent.status === 'pending' && now.getTime() - new Date(intent.created_at).getTime() >= ABANDON_AFTER_MS) next = 'abandoned';
  if (next) {
    await db.execute(sql`UPDATE topup_intents SET status = ${next}, failure_reason = ${`processor reports ${v.status}`}, last_checked_at = ${now}, updated_at = ${now}
        WHERE id = ${intent.id} AND status <> 'success'`);
    summary[next === 'failed' ? 'failed' : 'abandoned']++;
  } else {
    await db.execute(sql`UPDATE topup_intents SET last_checked_at = ${now} WHERE id = ${intent.id}`);
  }
}

/**
 * Transfers into dedicated accounts have no intent to verify: list the processor's successful charges of the
 * last two days and settle the dedicated_nuban ones no webhook brought (settleCharge skips credited ones). The
 * transfers found add to the run's total.
 */
async function reconcileDedicatedTransfers(
  { log, processors, adapterOf, creditDedicatedAccount }: ReconciliationDeps,
  now: Date,
  summary: Summary,
  run: { total: number },
) {
  for (const id of processors.ids()) {
    let charges: ChargeEvent[];
    try {
      charges = await adapterOf(id).listSuccessfulCharges(
        new Date(now.getTime() - DVA_RECONCILE_WINDOW_MS),
        new Date(now.getTime() + 5 * MINUTE),
      );
    } catch (err) {
      summary.errors++;
      log.warn({ processor: id, err: (err as Error).message }, 'reconciliation could not list processor charges');
      continue;
    }
    const transfers = charges.filter((c) => c.channel === 'dedicated_nuban' && c.status === 'success' && c.currency === 'NGN');
    run.total += transfers.length;
    for (const c of transfers) {
      summary.checked++;
      if ((await creditDedicatedAccount(id, c, 'reconciliation')) === 'credited') summary.settled++;
    }
  }
}
