import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { RowOf } from '../../db/rows.js';
import type { Work } from '../../platform/change.js';
import type { Clock } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';
import { hmac } from '../../lib/crypto.js';
import type { Logger } from '../../lib/logger.js';
import { resolvePublic, type Resolver } from '../../lib/public-address.js';
import type { Outbox } from '../notifications/api.js';
import type { webhookDeliveries, webhookEndpoints } from './schema.js';

/** The events an endpoint can take. */
export const WEBHOOK_EVENTS = [
  'purchase.succeeded',
  'purchase.failed',
  'purchase.refunded',
  'wallet.credited',
  'epin.batch_ready',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const FANOUT_JOB = 'webhooks.fanout';
export const DELIVER_JOB = 'webhooks.deliver';
/** 13 attempts, 1 minute doubling: the last is about 2.8 days after the first. */
export const DELIVERY_ATTEMPTS = 13;
export const DELIVERY_BACKOFF_MS = 60_000;

/** A webhook_endpoints row. */
export type EndpointRow = RowOf<typeof webhookEndpoints>;
/** A webhook_deliveries row. */
export type DeliveryRow = RowOf<typeof webhookDeliveries>;

/** What the fan-out job carries: one event of one customer, its body already made at the event. */
export interface WebhookEventJob {
  type: WebhookEvent;
  userId: string;
  id: string;
  body: string;
}

/**
 * The job is written only while the customer has an active endpoint for the event: one condition per event type
 * (kept, so a batch's jobs stay one statement). Compared as text, so a malformed user id matches nothing instead of
 * failing the emitter's change (an event's subscribers never undo the change that emitted it); the table holds only
 * resellers' endpoints.
 */
const conditions = new Map<WebhookEvent, (payload: SQL) => SQL>();
export const hasEndpointFor = (type: WebhookEvent) => {
  if (!conditions.has(type))
    conditions.set(
      type,
      (payload) =>
        sql`EXISTS (SELECT 1 FROM webhook_endpoints w
              WHERE w.user_id::text = (${payload} ->> 'userId')
                AND w.status = 'active' AND ${type} = ANY(w.events))`,
    );
  return conditions.get(type)!;
};

/** The `Webhook-Signature` header of a body sent at `timestamp` (unix seconds). */
export function signatureOf(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${hmac(secret, `${timestamp}.${body}`)}`;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
/** An endpoint as the API shows it. */
export const endpointView = (r: EndpointRow) => ({
  id: r.id,
  url: r.url,
  events: r.events as WebhookEvent[],
  status: r.status as 'active' | 'disabled',
  disabledReason: r.disabled_reason,
  createdAt: iso(r.created_at)!,
});
/** A delivery as the API shows it (the delivery log). */
export const deliveryView = (r: DeliveryRow) => ({
  id: r.id,
  endpointId: r.endpoint_id,
  eventId: r.event_id,
  eventType: r.event_type,
  status: r.status as 'pending' | 'succeeded' | 'failed',
  attempts: r.attempts,
  responseStatus: r.response_status,
  responseMs: r.response_ms,
  error: r.error,
  createdAt: iso(r.created_at)!,
  lastAttemptAt: iso(r.last_attempt_at),
});

/** What the webhooks use. */
export interface WebhookDeps {
  db: Db;
  clock: Clock;
  work: Work;
  outbox: Outbox;
  log: Logger;
  resolver: Resolver;
  secretKey: string;
  /** The sandbox: endpoints on loopback or private addresses, and plain http, are allowed. */
  sandbox: boolean;
}

/** An endpoint URL as allowed here: outside the sandbox https on a public address, else VALIDATION_FAILED. */
export async function checkUrl({ sandbox, resolver }: WebhookDeps, raw: string): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('VALIDATION_FAILED', 'The endpoint must be a URL', { issues: [{ path: 'url', message: 'not a URL' }] });
  }
  if (sandbox) return url;
  if (url.protocol !== 'https:')
    throw new AppError('VALIDATION_FAILED', 'The endpoint must use https', { issues: [{ path: 'url', message: 'https only' }] });
  await resolvePublic(url.hostname, resolver).catch(() => {
    throw new AppError('VALIDATION_FAILED', 'The endpoint must be on a public address', {
      issues: [{ path: 'url', message: 'not public' }],
    });
  });
  return url;
}
