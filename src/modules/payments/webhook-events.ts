import { sql } from 'drizzle-orm';

import { one, type Db, type Executor } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Work } from '../../platform/change.js';

import type { Clock } from '../../kernel/clock.js';

import { sha256 } from '../../lib/crypto.js';

import { uuid } from '../../kernel/ids.js';
import { faultPoint } from '../../lib/faults.js';

import type { Logger } from '../../lib/logger.js';

import { formatNaira } from '../../kernel/money.js';
import type { ProcessorAdapter } from '../../providers/processor.js';
import { createDedicatedAccounts } from './dedicated-accounts.js';

import { JOB_PROCESS_EVENT } from './model.js';
import { createSettlement } from './settlement.js';

type Settlement = ReturnType<typeof createSettlement>;

/** How long one instance reuses its reading of the credit backlog (admission control) before reading it again. */
export const BACKLOG_CHECK_MS = 50;
/** Retry-After (seconds) of a webhook refused while credits are behind. */
export const WEBHOOK_RETRY_AFTER_S = 1;
type DedicatedAccounts = ReturnType<typeof createDedicatedAccounts>;

/**
 * Processor webhook events: stored verbatim with their processing job in one statement (duplicates recognised),
 * then processed by the job: a charge settles its top-up intent or credits a dedicated account, once.
 */
export function createWebhookEvents(deps: {
  db: Db;
  clock: Clock;
  jobs: JobQueue;
  work: Work;
  log: Logger;
  adapterOf: (id: string) => ProcessorAdapter;
  admission: { maxAgeMs: number; maxPending: number };
  settleChargeAlone: Settlement['settleChargeAlone'];
  creditDedicatedAccount: DedicatedAccounts['creditDedicatedAccount'];
  ensureDedicatedAccount: DedicatedAccounts['ensureDedicatedAccount'];
}) {
  const { db, clock, jobs, work, log, adapterOf, admission, settleChargeAlone, creditDedicatedAccount, ensureDedicatedAccount } = deps;

  // Admission control: the credit jobs due and the oldest one's wait, read at most every BACKLOG_CHECK_MS per
  // instance (one bounded index read; concurrent webhooks share it). Where this process credits too (its lane has a
  // pace), the credits it can post within the age bound are the room: webhooks admitted since the reading count
  // against it, so a reading that comes back late does not admit everyone who waited for it.
  let reading = { at: -Infinity, behind: false, room: Infinity };
  let inFlight: Promise<void> | null = null;
  const read = async () => {
    try {
      const b = await jobs.backlog(JOB_PROCESS_EVENT, admission.maxPending);
      const now = clock.now().getTime();
      const room = b.msPerJob ? Math.min(admission.maxPending, Math.max(1, Math.floor(admission.maxAgeMs / b.msPerJob))) : Infinity;
      const behind = b.pending >= admission.maxPending || (b.oldestDueAt !== null && now - b.oldestDueAt.getTime() > admission.maxAgeMs);
      reading = { at: now, behind, room: room - b.pending };
    } finally {
      inFlight = null;
    }
  };
  async function creditsBehind(): Promise<boolean> {
    // A worker whose event loop runs late posts late credits, whatever the backlog: refused at once.
    if (jobs.loopLagMs() > admission.maxAgeMs) return true;
    if (clock.now().getTime() - reading.at >= BACKLOG_CHECK_MS) await (inFlight ??= read());
    if (reading.behind || reading.room <= 0) return true;
    reading.room--;
    return false;
  }

  async function markEvent(exec: Executor, eventId: string, status: string, outcome: string) {
    await exec.execute(
      sql`UPDATE processor_events SET status = ${status}, outcome = ${outcome}, processed_at = ${clock.now()} WHERE id = ${eventId}`,
    );
  }
  return {
    async storeEvent(processorId: string, rawBody: Buffer, payload: unknown): Promise<{ eventId: string; duplicate: boolean }> {
      const ev = payload as { event?: unknown; data?: { reference?: unknown } };
      const eventName = typeof ev?.event === 'string' ? ev.event.slice(0, 100) : '(none)';
      const reference = typeof ev?.data?.reference === 'string' ? ev.data.reference.slice(0, 200) : null;
      const hash = sha256(rawBody);
      // While credits are behind, a webhook is refused unstored (the processor retries after Retry-After) rather
      // than queued to be credited late. Refusing asks nothing of the database, so a storm of refusals leaves its
      // connections to the credits; a redelivery refused now is recognised as one when it comes back.
      if (await creditsBehind()) {
        throw new AppError('RATE_LIMITED', 'Credits are behind; retry this webhook shortly', { retryAfter: WEBHOOK_RETRY_AFTER_S });
      }
      const now = clock.now();
      const id = uuid();
      // The event decides the change: its processing job is written only when the event row is new.
      const [inserted] = await work
        .change()
        .enqueue(JOB_PROCESS_EVENT, { eventId: id }, { singletonKey: `processor-event:${id}` })
        .commitDeciding<{ id: string }>(
          { alias: 'ev', columns: sql`id uuid` },
          (made) =>
            sql`WITH ev AS (
              INSERT INTO processor_events (id, processor, payload_hash, event, reference, payload, status, received_at, last_received_at)
              VALUES (${id}, ${processorId}, ${hash}, ${eventName}, ${reference}, ${JSON.stringify(payload)}::jsonb, 'received', ${now}, ${now})
              ON CONFLICT (payload_hash) DO NOTHING RETURNING id)
            SELECT id::text AS id, ${made(sql`ev`)} AS made FROM ev`,
        );
      const stored = inserted
        ? { eventId: id, duplicate: false }
        : await db.transaction(async (tx) => {
            const prior = (await one<{ id: string; status: string; deliveries: number }>(
              tx,
              sql`UPDATE processor_events SET deliveries = deliveries + 1, last_received_at = ${clock.now()} WHERE payload_hash = ${hash} RETURNING id, status, deliveries`,
            ))!;
            // A redelivery revives an event whose processing died, so the processor's retries are never wasted.
            if (prior.status === 'failed') {
              await tx.execute(sql`UPDATE processor_events SET status = 'received' WHERE id = ${prior.id}`);
              await work
                .change(tx)
                .enqueue(JOB_PROCESS_EVENT, { eventId: prior.id }, { singletonKey: `processor-event:${prior.id}:${prior.deliveries}` })
                .commit();
            }
            return { eventId: prior.id, duplicate: true };
          });
      faultPoint('payments.webhook.afterStore');
      // The credit should follow the webhook within a second, not wait for the worker's next poll.
      if (!stored.duplicate) jobs.nudge(JOB_PROCESS_EVENT);
      return stored;
    },

    /** The job behind the webhook: decides what a stored event means and credits at most once. */
    async processEvent(eventId: string, isLastAttempt: boolean) {
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
        if (c.event !== 'charge.success') return markEvent(db, ev.id, 'ignored', `event ${c.event} needs no action`);
        if (c.status !== 'success') return markEvent(db, ev.id, 'ignored', `charge status is ${c.status ?? 'missing'}`);
        if (!c.reference || c.amount === null || c.amount <= 0n)
          return markEvent(db, ev.id, 'ignored', 'charge has no reference or no positive amount');
        if (c.currency !== 'NGN') return markEvent(db, ev.id, 'ignored', `currency ${c.currency} is not credited`);
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
          if (!credited) await markEvent(db, ev.id, 'duplicate', 'already credited');
          return;
        }
        if (c.channel === 'dedicated_nuban') {
          const r = await creditDedicatedAccount(ev.processor, c, 'webhook', (tx, credited) =>
            markEvent(
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
        return markEvent(db, ev.id, 'unmatched', 'no top-up intent or dedicated account matches this charge');
      } catch (err) {
        if (isLastAttempt) await markEvent(db, ev.id, 'failed', `processing failed: ${(err as Error).message}`.slice(0, 500));
        throw err;
      }
    },

    /** getOrCreateDedicatedAccount (our name for spec 4.1's unnamed operation). */
    getOrCreateDedicatedAccount: (userId: string) => ensureDedicatedAccount(userId),
  };
}
