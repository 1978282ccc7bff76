import { sql } from 'drizzle-orm';

import { rows, type Db, type Tx } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { faultPoint } from '../../lib/faults.js';
import type { Logger } from '../../lib/logger.js';
import { formatNaira } from '../../kernel/money.js';
import type { ProcessorAdapter } from '../../providers/processor.js';
import type { Settlement } from './settlement.js';

export interface CreditItem {
  eventId: string;
  isLastAttempt: boolean;
}

/** What the credit batch uses. */
export interface CreditBatchDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  adapterOf: (id: string) => ProcessorAdapter;
  settleCharge: Settlement['settleCharge'];
  processEvent: (eventId: string, isLastAttempt: boolean) => Promise<void>;
}

/**
 * Webhook credits in batches (the credit lanes, jobs.ts): the claimed events are read by one statement, and every
 * charge.success for a top-up intent is posted in ONE transaction (one commit for the batch), in wallet order so
 * two lanes never wait on each other in a cycle. Each event keeps its own outcome: the ledger's unique reference
 * still credits each processor reference once (a second event for it in the same batch is marked duplicate).
 * Anything else (no intent under the stored reference, a dedicated account, an event to ignore) and every event of
 * a batch whose transaction failed goes through processEvent alone, so one bad event fails only its own job.
 * Answers each item's error, or null.
 */
export function createCreditBatch(deps: CreditBatchDeps) {
  return (items: CreditItem[]): Promise<unknown[]> => processEvents(deps, items);
}

/** The batch: its plain top-up credits in one transaction, every other event (and all of a failed batch) alone. */
export async function processEvents(deps: CreditBatchDeps, items: CreditItem[]): Promise<unknown[]> {
  const { db, log } = deps;
  const answers: unknown[] = items.map(() => null);
  const rest = new Set(items.keys());
  if (items.length > 1) {
    try {
      const plans = await plan(deps, items);
      if (plans.length) {
        await db.transaction(async (tx) => {
          const now = deps.clock.now();
          for (const p of plans) await post(deps, tx, p, now);
          faultPoint('payments.credit.beforeCommit');
        });
        for (const p of plans) rest.delete(p.index);
      }
    } catch (err) {
      // Nothing of the batch committed: each event runs alone, so only a bad one fails.
      log.warn({ err: (err as Error).message, events: items.length }, 'webhook credit batch failed; crediting one by one');
    }
  }
  for (const i of rest) answers[i] = await alone(deps, items[i]);
  return answers;
}

const alone = async ({ processEvent }: CreditBatchDeps, it: CreditItem): Promise<unknown> => {
  try {
    await processEvent(it.eventId, it.isLastAttempt);
    return null;
  } catch (err) {
    return err;
  }
};

type Plan = {
  index: number;
  eventId: string;
  userId: string;
  intentId: string;
  processor: string;
  reference: string;
  amount: bigint;
  channel: string | null;
  paidAt: Date | null;
  outcome: string;
};

/** The events of the batch that are plain top-up credits, read in one statement; the others are left out. */
async function plan({ db, adapterOf }: CreditBatchDeps, items: CreditItem[]): Promise<Plan[]> {
  const found = await rows<{
    id: string;
    processor: string;
    payload: unknown;
    reference: string | null;
    intent_id: string | null;
    intent_user_id: string | null;
    intent_amount: string | null;
  }>(
    db,
    sql`SELECT e.id::text AS id, e.processor, e.payload, e.reference, i.id::text AS intent_id, i.user_id::text AS intent_user_id, i.amount::text AS intent_amount
        FROM processor_events e JOIN topup_intents i ON i.reference = e.reference AND i.processor = e.processor
        WHERE e.id = ANY(${`{${items.map((i) => i.eventId).join(',')}}`}::uuid[]) AND e.status = 'received'`,
  );
  const indexOf = new Map(items.map((it, i) => [it.eventId, i]));
  const plans: Plan[] = [];
  for (const ev of found) {
    let c;
    try {
      c = adapterOf(ev.processor).parseEvent(typeof ev.payload === 'string' ? JSON.parse(ev.payload) : ev.payload);
    } catch {
      continue; // processEvent alone records why
    }
    if (c.event !== 'charge.success' || c.status !== 'success' || c.currency !== 'NGN') continue;
    if (!c.reference || c.reference !== ev.reference || c.amount === null || c.amount <= 0n) continue;
    const requested = BigInt(ev.intent_amount!);
    const note = c.amount === requested ? '' : `; paid ${formatNaira(c.amount)} against ${formatNaira(requested)} requested`;
    plans.push({
      index: indexOf.get(ev.id)!,
      eventId: ev.id,
      userId: ev.intent_user_id!,
      intentId: ev.intent_id!,
      processor: ev.processor,
      reference: c.reference,
      amount: c.amount,
      channel: c.channel,
      paidAt: c.paidAt,
      outcome: `credited ${formatNaira(c.amount)}${note}`,
    });
  }
  // Wallet order, then event order: concurrent batches lock wallets in the same order.
  return plans.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : a.eventId < b.eventId ? -1 : 1));
}

async function post({ settleCharge }: CreditBatchDeps, tx: Tx, p: Plan, now: Date) {
  const credited = await settleCharge(
    tx,
    {
      processor: p.processor,
      reference: p.reference,
      userId: p.userId,
      intentId: p.intentId,
      kind: 'topup',
      amount: p.amount,
      channel: p.channel,
      paidAt: p.paidAt,
      source: 'webhook',
    },
    { id: p.eventId, outcome: p.outcome },
  );
  if (!credited)
    await tx.execute(
      sql`UPDATE processor_events SET status = 'duplicate', outcome = 'already credited', processed_at = ${now} WHERE id = ${p.eventId}`,
    );
}
