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

import type { WebhookEvent } from './inputs.js';
import type { KeyMode } from './keys.js';
import type { DeliveryView, EndpointView, LiveWorld, TestWorld } from './deps.js';

export { WEBHOOK_EVENTS, type WebhookEvent } from './inputs.js';
export const FANOUT_JOB = 'webhooks.fanout';
export const DELIVER_JOB = 'webhooks.deliver';
/** 13 attempts, 1 minute doubling: the last is about 2.8 days after the first. */
export const DELIVERY_ATTEMPTS = 13;
export const DELIVERY_BACKOFF_MS = 60_000;

/** A webhook_endpoints row. */
export type EndpointRow = RowOf<typeof webhookEndpoints>;
/** A webhook_deliveries row. */
export type DeliveryRow = RowOf<typeof webhookDeliveries>;

/**
 * What the fan-out job carries: one event of one customer, its time and data; the job makes the body every endpoint
 * receives (`body`: a job written before the body was made there).
 */
export interface WebhookEventJob {
  type: WebhookEvent;
  userId: string;
  id: string;
  created?: string;
  data?: Record<string, unknown>;
  body?: string;
}

/** The body every endpoint receives for an event (signed as sent). */
export const webhookBodyOf = (e: WebhookEventJob) => e.body ?? JSON.stringify({ id: e.id, type: e.type, created: e.created, data: e.data });

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
/** An endpoint as the API shows it, in its world's mode. */
export const endpointView = (r: EndpointRow, mode: KeyMode): EndpointView => ({
  id: r.id,
  mode,
  url: r.url,
  events: r.events as WebhookEvent[],
  status: r.status as 'active' | 'disabled',
  disabledReason: r.disabled_reason,
  createdAt: iso(r.created_at)!,
});
/** A delivery as the API shows it (the delivery log), in its world's mode. */
export const deliveryView = (r: DeliveryRow, mode: KeyMode): DeliveryView => ({
  id: r.id,
  mode,
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
  /**
   * Endpoints on loopback or private addresses, and plain http, are allowed: the sandbox only (config.webhooksPrivate;
   * the test world takes its live world's, so a test endpoint is held to the same rule as a live one).
   */
  sandbox: boolean;
  /** The test world, where test endpoints live; null inside it (its endpoints are the test ones). */
  testWorld: TestWorld | null;
  /** Inside the test world, the live world that e-mails a disabled test endpoint's owner; null in the live world. */
  liveWorld: LiveWorld | null;
}

/** The mode of this world's endpoints: live here, test in the test world. */
export const modeOf = ({ testWorld }: Pick<WebhookDeps, 'testWorld'>): KeyMode => (testWorld ? 'live' : 'test');

/** An endpoint URL as allowed here: outside the sandbox https on a public address, else VALIDATION_FAILED. */
export async function checkUrl(deps: WebhookDeps, raw: string): Promise<URL> {
  const url = urlOf(deps, raw);
  if (deps.sandbox) return url;
  await resolvePublic(url.hostname, deps.resolver).catch(() => {
    throw new AppError('VALIDATION_FAILED', 'The endpoint must be on a public address', {
      issues: [{ path: 'url', message: 'not public' }],
    });
  });
  return url;
}

/**
 * An endpoint URL parsed, https outside the sandbox (VALIDATION_FAILED otherwise). Its address is checked where it is
 * used: when the endpoint is added (checkUrl) and by every delivery's connection (lib/pinned-post.ts).
 */
export function urlOf({ sandbox }: Pick<WebhookDeps, 'sandbox'>, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('VALIDATION_FAILED', 'The endpoint must be a URL', { issues: [{ path: 'url', message: 'not a URL' }] });
  }
  if (!sandbox && url.protocol !== 'https:')
    throw new AppError('VALIDATION_FAILED', 'The endpoint must use https', { issues: [{ path: 'url', message: 'https only' }] });
  return url;
}
