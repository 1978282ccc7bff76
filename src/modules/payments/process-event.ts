import { sql } from 'drizzle-orm';
import { one, type Db, type Executor } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { formatNaira } from '../../kernel/money.js';
import type { Logger } from '../../lib/logger.js';
import type { ProcessorAdapter } from '../../providers/processor.js';
import type { DedicatedAccounts } from './dedicated-accounts.js';
import type { Settlement } from './settlement.js';

/** What processing a stored webhook event uses. */
export interface ProcessEventDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  adapterOf: (id: string) => ProcessorAdapter;
  settleChargeAlone: Settlement['settleChargeAlone'];
  creditDedicatedAccount: DedicatedAccounts['creditDedicatedAccount'];
  /** A transfer event for a withdrawal (withdrawal-jobs.ts): what it did, or null when the reference is none. */
  transferEvent: (processor: string, event: string, reference: string) => Promise<string | null>;
}

/** Money-out events (issue 43): a withdrawal's transfer ended at the processor. */
const TRANSFER_EVENTS = ['transfer.success', 'transfer.failed', 'transfer.reversed'];

/** The job behind the webhook: decides what a stored event means and credits at most once. */
export async function processEvent(deps: ProcessEventDeps, eventId: string, isLastAttempt: boolean) {
  const { db, clock, log, adapterOf, settleChargeAlone, creditDedicatedAccount } = deps;
  // One read: the event and the top-up intent of the reference it was stored under (checked below against
  // the reference the adapter parses).
  const ev = await one<{
    id: string;
    processor: string;
    payload: unknown;
    status: string;
    reference: string | null;
    intent_id: string | null;
    intent_user_id: string | null;
    intent_amount: string | null;
  }>(
    db,
    sql`SELECT e.id, e.processor, e.payload, e.status, e.reference, i.id AS intent_id, i.user_id AS intent_user_id, i.amount::text AS intent_amount
        FROM processor_events e LEFT JOIN topup_intents i ON e.status = 'received' AND i.reference = e.reference AND i.processor = e.processor
        WHERE e.id = ${eventId}`,
  );
  if (!ev || ev.status !== 'received') return;
  try {
    const adapter = adapterOf(ev.processor);
    const c = adapter.parseEvent(typeof ev.payload === 'string' ? JSON.parse(ev.payload) : ev.payload);
    if (TRANSFER_EVENTS.includes(c.event)) return transferOutcome(deps, ev, c.event, c.reference);
    if (c.event !== 'charge.success') return markEvent(clock, db, ev.id, 'ignored', `event ${c.event} needs no action`);
    if (c.status !== 'success') return markEvent(clock, db, ev.id, 'ignored', `charge status is ${c.status ?? 'missing'}`);
    if (!c.reference || c.amount === null || c.amount <= 0n)
      return markEvent(clock, db, ev.id, 'ignored', 'charge has no reference or no positive amount');
    if (c.currency !== 'NGN') return markEvent(clock, db, ev.id, 'ignored', `currency ${c.currency} is not credited`);
    const reference = c.reference;
    const amount = c.amount;

    const intent =
      ev.reference === reference
        ? ev.intent_id && { id: ev.intent_id, user_id: ev.intent_user_id!, amount: ev.intent_amount! }
        : await one<{ id: string; user_id: string; amount: string }>(
            db,
            sql`SELECT id, user_id, amount::text AS amount FROM topup_intents WHERE reference = ${reference} AND processor = ${ev.processor}`,
          );
    if (intent) {
      const note =
        amount === BigInt(intent.amount) ? '' : `; paid ${formatNaira(amount)} against ${formatNaira(BigInt(intent.amount))} requested`;
      const credited = await settleChargeAlone(
        {
          processor: ev.processor,
          reference,
          userId: intent.user_id,
          intentId: intent.id,
          kind: 'topup',
          amount,
          channel: c.channel,
          paidAt: c.paidAt,
          source: 'webhook',
        },
        { id: ev.id, outcome: `credited ${formatNaira(amount)}${note}` },
      );
      if (!credited) await markEvent(clock, db, ev.id, 'duplicate', 'already credited');
      return;
    }
    if (c.channel === 'dedicated_nuban') {
      const r = await creditDedicatedAccount(ev.processor, c, 'webhook', (tx, credited) =>
        markEvent(
          clock,
          tx,
          ev.id,
          credited ? 'credited' : 'duplicate',
          credited ? `credited ${formatNaira(amount)} to a dedicated account` : 'already credited',
        ),
      );
      if (r !== 'unmatched') return;
    }
    // Kept for an operator (adminSearchPayments kind=events); nothing is credited without an owner.
    log.warn({ eventId: ev.id, reference }, 'charge.success for an unknown reference');
    return markEvent(clock, db, ev.id, 'unmatched', 'no top-up intent or dedicated account matches this charge');
  } catch (err) {
    if (isLastAttempt) await markEvent(clock, db, ev.id, 'failed', `processing failed: ${(err as Error).message}`.slice(0, 500));
    throw err;
  }
}

/** A withdrawal's transfer event (withdrawal-jobs.ts) and its record. */
async function transferOutcome(deps: ProcessEventDeps, ev: { id: string; processor: string }, event: string, reference: string | null) {
  const done = reference ? await deps.transferEvent(ev.processor, event, reference) : null;
  await markEvent(deps.clock, deps.db, ev.id, done ? 'processed' : 'ignored', done ?? 'no withdrawal matches this transfer');
}

/** Records the event's outcome. */
async function markEvent(clock: Clock, exec: Executor, eventId: string, status: string, outcome: string) {
  await exec.execute(
    sql`UPDATE processor_events SET status = ${status}, outcome = ${outcome}, processed_at = ${clock.now()} WHERE id = ${eventId}`,
  );
}
