import { sql } from 'drizzle-orm';
import { one, type Db } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Clock } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';
import { uuid } from '../../kernel/ids.js';
import { sha256 } from '../../lib/crypto.js';
import { faultPoint } from '../../lib/faults.js';
import type { Work } from '../../platform/change.js';
import type { DedicatedAccounts } from './dedicated-accounts.js';
import { JOB_PROCESS_EVENT } from './model.js';
import { processEvent, type ProcessEventDeps } from './process-event.js';

/** How long one instance reuses its reading of the credit backlog (admission control) before reading it again. */
export const BACKLOG_CHECK_MS = 50;
/** Retry-After (seconds) of a webhook refused while credits are behind. */
export const WEBHOOK_RETRY_AFTER_S = 1;

/** The credit backlog's limits a webhook is admitted under. */
export interface Admission {
  maxAgeMs: number;
  maxPending: number;
}

/** What storing a webhook event uses; `creditsBehind` is the instance's admission control (creditsBehindOf). */
export interface StoreEventDeps {
  db: Db;
  clock: Clock;
  jobs: JobQueue;
  work: Work;
  creditsBehind: () => Promise<boolean>;
}

/**
 * Processor webhook events: stored verbatim with their processing job in one statement (duplicates recognised),
 * then processed by the job: a charge settles its top-up intent or credits a dedicated account, once.
 */
export function createWebhookEvents(
  deps: ProcessEventDeps & {
    jobs: JobQueue;
    work: Work;
    admission: Admission;
    ensureDedicatedAccount: DedicatedAccounts['ensureDedicatedAccount'];
  },
) {
  const store: StoreEventDeps = { ...deps, creditsBehind: creditsBehindOf(deps) };
  return {
    storeEvent: (processorId: string, rawBody: Buffer, payload: unknown) => storeEvent(store, processorId, rawBody, payload),
    /** The job behind the webhook: decides what a stored event means and credits at most once. */
    processEvent: (eventId: string, isLastAttempt: boolean) => processEvent(deps, eventId, isLastAttempt),
    /** getOrCreateDedicatedAccount (our name for spec 4.1's unnamed operation). */
    getOrCreateDedicatedAccount: (userId: string) => deps.ensureDedicatedAccount(userId),
  };
}

/** The instance's admission control: true when a webhook is refused because credits are behind. */
export function creditsBehindOf({ jobs, clock, admission }: { jobs: JobQueue; clock: Clock; admission: Admission }) {
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
  return async function creditsBehind(): Promise<boolean> {
    // A worker whose event loop runs late posts late credits, whatever the backlog: refused at once.
    if (jobs.loopLagMs() > admission.maxAgeMs) return true;
    if (clock.now().getTime() - reading.at >= BACKLOG_CHECK_MS) await (inFlight ??= read());
    if (reading.behind || reading.room <= 0) return true;
    reading.room--;
    return false;
  };
}

/** storeEvent: a checked webhook body stored with its processing job, or recognised as a redelivery. */
export async function storeEvent(
  deps: StoreEventDeps,
  processorId: string,
  rawBody: Buffer,
  payload: unknown,
): Promise<{ eventId: string; duplicate: boolean }> {
  const { db, clock, jobs, work, creditsBehind } = deps;
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
}
