import { z } from 'zod';
import type { JobQueue } from '../../jobs/queue.js';
import type { Clock } from '../../kernel/clock.js';
import { toNaira } from '../../kernel/money.js';
import type { EventBus } from '../../platform/change.js';
import type { PurchaseRefund } from '../../platform/events.js';
import {
  DELIVER_JOB,
  DELIVERY_ATTEMPTS,
  DELIVERY_BACKOFF_MS,
  FANOUT_JOB,
  hasEndpointFor,
  WEBHOOK_EVENTS,
  type WebhookEvent,
  type WebhookEventJob,
  type Webhooks,
} from './webhooks.js';

/**
 * Which domain events become webhook events (issue 45), and the jobs that deliver them. A subscriber adds the fan-out
 * job to the emitter's change only while the customer has an active endpoint for the event; the job writes one
 * delivery per endpoint, each delivered (and retried) by a job of its own.
 */
const whenPurchase = hasEndpointFor('purchase.succeeded');
const whenFailed = hasEndpointFor('purchase.failed');
const whenRefunded = hasEndpointFor('purchase.refunded');
const whenCredited = hasEndpointFor('wallet.credited');
const whenEpins = hasEndpointFor('epin.batch_ready');

/** A purchase's refund as its event's data: the purchase as it stands (a failed one, or a delivered one). */
const refundData = (e: PurchaseRefund, status: 'failed' | 'success') => ({
  transactionId: e.transactionId,
  reference: e.reference,
  service: e.service,
  amount: toNaira(e.amount),
  refunded: toNaira(e.refunded),
  status,
});

export function subscribeWebhooks({ events, clock }: { events: EventBus; clock: Clock }) {
  /** The fan-out job of an event: its time and data (the job makes the body, webhookBodyOf). */
  const job = (type: WebhookEvent, userId: string, id: string, data: Record<string, unknown>): WebhookEventJob => ({
    type,
    userId,
    id,
    created: clock.now().toISOString(),
    data,
  });
  events.on('vtu.succeeded', (e, change) => {
    const data = { transactionId: e.transactionId, service: e.service, amount: toNaira(e.amount) };
    change.enqueue(FANOUT_JOB, job('purchase.succeeded', e.userId, `evt_purchase_succeeded_${e.transactionId}`, data), {
      onlyIf: whenPurchase,
    });
  });
  events.on('vtu.failed', (e, change) => {
    const id = `evt_purchase_failed_${e.transactionId}`;
    change.enqueue(FANOUT_JOB, job('purchase.failed', e.userId, id, refundData(e, 'failed')), { onlyIf: whenFailed });
  });
  events.on('vtu.refunded', (e, change) => {
    const id = `evt_purchase_refunded_${e.transactionId}`;
    change.enqueue(FANOUT_JOB, job('purchase.refunded', e.userId, id, refundData(e, 'success')), { onlyIf: whenRefunded });
  });
  events.on('wallet.credited', (e, change) => {
    const data = { amount: toNaira(e.amount), source: e.source, reference: e.reference };
    change.enqueue(FANOUT_JOB, job('wallet.credited', e.userId, `evt_wallet_credited_${e.reference}`, data), { onlyIf: whenCredited });
  });
  // Recharge cards (issue 45): a batch settled, its cards ready and what was not delivered refunded, once per batch.
  events.on('epin.batch_ready', (e, change) => {
    const id = `evt_epin_batch_ready_${e.batchId}`;
    const status = e.delivered === e.quantity ? 'delivered' : e.delivered === 0 ? 'failed' : 'partial';
    const data = { batchId: e.batchId, quantity: e.quantity, delivered: e.delivered, refunded: toNaira(e.refunded), status };
    change.enqueue(FANOUT_JOB, job('epin.batch_ready', e.userId, id, data), { onlyIf: whenEpins });
  });
}

export function registerWebhookJobs({ jobs, webhooks }: { jobs: JobQueue; webhooks: Webhooks }) {
  jobs.register({
    name: FANOUT_JOB,
    payload: z.object({
      type: z.enum(WEBHOOK_EVENTS),
      userId: z.string(),
      id: z.string(),
      created: z.string().optional(),
      data: z.record(z.string(), z.unknown()).optional(),
      body: z.string().optional(),
    }),
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
