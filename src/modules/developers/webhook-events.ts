import { z } from 'zod';
import type { JobQueue } from '../../jobs/queue.js';
import type { Clock } from '../../kernel/clock.js';
import { toNaira } from '../../kernel/money.js';
import type { EventBus } from '../../platform/change.js';
import {
  DELIVER_JOB,
  DELIVERY_ATTEMPTS,
  DELIVERY_BACKOFF_MS,
  FANOUT_JOB,
  hasEndpointFor,
  WEBHOOK_EVENTS,
  type WebhookEvent,
  type Webhooks,
} from './webhooks.js';

/**
 * Which domain events become webhook events (issue 45), and the jobs that deliver them. A subscriber adds the fan-out
 * job to the emitter's change only while the customer has an active endpoint for the event; the job writes one
 * delivery per endpoint, each delivered (and retried) by a job of its own.
 */
const whenPurchase = hasEndpointFor('purchase.succeeded');
const whenCredited = hasEndpointFor('wallet.credited');

const bodyOf = (id: string, type: WebhookEvent, created: Date, data: Record<string, unknown>) =>
  JSON.stringify({ id, type, created: created.toISOString(), data });

export function subscribeWebhooks({ events, clock }: { events: EventBus; clock: Clock }) {
  events.on('vtu.succeeded', (e, change) => {
    const id = `evt_purchase_succeeded_${e.transactionId}`;
    const data = { transactionId: e.transactionId, service: e.service, amount: toNaira(e.amount) };
    change.enqueue(
      FANOUT_JOB,
      { type: 'purchase.succeeded', userId: e.userId, id, body: bodyOf(id, 'purchase.succeeded', clock.now(), data) },
      { onlyIf: whenPurchase },
    );
  });
  events.on('wallet.credited', (e, change) => {
    const id = `evt_wallet_credited_${e.reference}`;
    const data = { amount: toNaira(e.amount), source: e.source, reference: e.reference };
    change.enqueue(
      FANOUT_JOB,
      { type: 'wallet.credited', userId: e.userId, id, body: bodyOf(id, 'wallet.credited', clock.now(), data) },
      { onlyIf: whenCredited },
    );
  });
}

export function registerWebhookJobs({ jobs, webhooks }: { jobs: JobQueue; webhooks: Webhooks }) {
  jobs.register({
    name: FANOUT_JOB,
    payload: z.object({ type: z.enum(WEBHOOK_EVENTS), userId: z.string(), id: z.string(), body: z.string() }),
    maxAttempts: 8,
    backoffMs: 30_000,
    handler: (p) => webhooks.fanout(p),
  });
  jobs.register({
    name: DELIVER_JOB,
    payload: z.object({ deliveryId: z.string() }),
    maxAttempts: DELIVERY_ATTEMPTS,
    backoffMs: DELIVERY_BACKOFF_MS,
    handler: (p, meta) => webhooks.deliver(p.deliveryId, meta.attempt),
  });
}
