import { sql, type SQL } from 'drizzle-orm';
import { one, rows, type Db } from '../../db/client.js';
import type { RowOf } from '../../db/rows.js';
import type { Work } from '../../platform/change.js';
import type { Clock } from '../../kernel/clock.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { prefixedId } from '../../kernel/ids.js';
import { decrypt, encrypt, hmac, randomToken } from '../../lib/crypto.js';
import type { Logger } from '../../lib/logger.js';
import { resolvePublic, type Resolver } from '../../lib/public-address.js';
import { emailsOf } from '../identity/api.js';
import type { Outbox } from '../notifications/api.js';
import type { webhookDeliveries, webhookEndpoints } from './schema.js';

/**
 * Signed outbound webhooks (issue 45): a customer's endpoints receive its events (a purchase delivered, money into the
 * wallet), each delivery signed Stripe-style with the endpoint's own secret over the timestamp and the body
 * (`Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`), retried by the job queue with backoff
 * for about three days, logged with status and response time, resendable; an endpoint whose delivery fails every
 * attempt is disabled and its owner e-mailed. Outside the sandbox an endpoint must be https on a public address.
 */
export const WEBHOOK_EVENTS = ['purchase.succeeded', 'wallet.credited'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const FANOUT_JOB = 'webhooks.fanout';
export const DELIVER_JOB = 'webhooks.deliver';
/** 13 attempts, 1 minute doubling: the last is about 2.8 days after the first. */
export const DELIVERY_ATTEMPTS = 13;
export const DELIVERY_BACKOFF_MS = 60_000;
const MAX_ENDPOINTS = 5;
const TIMEOUT_MS = 10_000;

type EndpointRow = RowOf<typeof webhookEndpoints>;
type DeliveryRow = RowOf<typeof webhookDeliveries>;

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

export function signatureOf(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${hmac(secret, `${timestamp}.${body}`)}`;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const endpointView = (r: EndpointRow) => ({
  id: r.id,
  url: r.url,
  events: r.events as WebhookEvent[],
  status: r.status as 'active' | 'disabled',
  disabledReason: r.disabled_reason,
  createdAt: iso(r.created_at)!,
});
const deliveryView = (r: DeliveryRow) => ({
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

export function createWebhooks(deps: WebhookDeps) {
  const { db, clock, work, outbox, log, resolver, secretKey, sandbox } = deps;

  async function checkUrl(raw: string): Promise<URL> {
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

  /** One attempt; a failure throws (the job queue retries it) except on the last attempt, which disables the endpoint. */
  async function deliver(deliveryId: string, attempt: number): Promise<void> {
    const d = await one<DeliveryRow & { url: string; secret_encrypted: string; endpoint_status: string; user_id: string }>(
      db,
      sql`SELECT d.*, e.url, e.secret_encrypted, e.status AS endpoint_status, e.user_id::text AS user_id
          FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE d.id = ${deliveryId}`,
    );
    if (!d || d.status === 'succeeded') return;
    if (d.endpoint_status !== 'active') {
      await record(deliveryId, 'failed', null, null, 'the endpoint is disabled');
      return;
    }
    const t = Math.floor(clock.now().getTime() / 1000);
    const started = performance.now();
    let status: number | null = null;
    let error: string | null = null;
    try {
      await checkUrl(d.url);
      const res = await fetch(d.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': d.event_id,
          'webhook-signature': signatureOf(decrypt(secretKey, d.secret_encrypted), t, d.body),
        },
        body: d.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      status = res.status;
      await res.body?.cancel().catch(() => undefined);
      if (status < 200 || status >= 300) error = `answered ${status}`;
    } catch (err) {
      error = err instanceof AppError ? err.message : (err as Error).name === 'TimeoutError' ? 'no answer in 10 s' : 'could not connect';
    }
    const ms = Math.round(performance.now() - started);
    if (!error) return void (await record(deliveryId, 'succeeded', status, ms, null));
    const last = attempt >= DELIVERY_ATTEMPTS;
    await record(deliveryId, last ? 'failed' : 'pending', status, ms, error);
    if (last) return disable(d.endpoint_id, d.user_id, d.url, `every attempt failed for about 3 days (last: ${error})`);
    throw Object.assign(new Error(`webhook ${deliveryId}: ${error}`), { expected: true });
  }

  async function record(id: string, status: string, code: number | null, ms: number | null, error: string | null) {
    await rows(
      db,
      sql`UPDATE webhook_deliveries SET status = ${status}, attempts = attempts + 1, response_status = ${code},
            response_ms = ${ms}, error = ${error}, last_attempt_at = ${clock.now()} WHERE id = ${id}`,
    );
  }

  async function disable(endpointId: string, userId: string, url: string, reason: string) {
    await db.transaction(async (tx) => {
      const r = await one<{ id: string }>(
        tx,
        sql`UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = ${reason}, disabled_at = ${clock.now()}
            WHERE id = ${endpointId} AND status = 'active' RETURNING id`,
      );
      const to = (await emailsOf(tx, [userId])).get(userId);
      if (!r || !to) return;
      await outbox.sendEmail(tx, {
        to,
        subject: 'Your webhook endpoint was disabled',
        text: `We could not deliver events to ${url}: ${reason}.\n\nIt is disabled now. Fix it, then add it again on the developer page; failed deliveries can be resent from the delivery log.`,
      });
    });
    log.warn({ endpointId }, 'webhook endpoint disabled after its deliveries kept failing');
  }

  return {
    async createEndpoint(userId: string, input: { url: string; events: WebhookEvent[] }) {
      const url = await checkUrl(input.url);
      const held = await one<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM webhook_endpoints WHERE user_id = ${userId} AND status = 'active'`,
      );
      if (held!.n >= MAX_ENDPOINTS) throw new AppError('LIMIT_EXCEEDED', `At most ${MAX_ENDPOINTS} webhook endpoints at once`);
      const secret = `whsec_${randomToken(24)}`;
      const r = await one<EndpointRow>(
        db,
        sql`INSERT INTO webhook_endpoints (id, user_id, url, events, secret_encrypted, status, created_at)
            VALUES (${prefixedId('whe')}, ${userId}, ${url.toString()}, ${`{${[...new Set(input.events)].join(',')}}`}::text[],
                    ${encrypt(secretKey, secret)}, 'active', ${clock.now()}) RETURNING *`,
      );
      return { endpoint: endpointView(r!), secret };
    },

    async listEndpoints(userId: string) {
      const list = await rows<EndpointRow>(db, sql`SELECT * FROM webhook_endpoints WHERE user_id = ${userId} ORDER BY created_at DESC`);
      return list.map(endpointView);
    },

    async disableEndpoint(userId: string, id: string) {
      const r = await one<EndpointRow>(
        db,
        sql`UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = COALESCE(disabled_reason, 'disabled by its owner'),
              disabled_at = COALESCE(disabled_at, ${clock.now()}) WHERE id = ${id} AND user_id = ${userId} RETURNING *`,
      );
      if (!r) throw notFound('Webhook endpoint');
      return endpointView(r);
    },

    async listDeliveries(userId: string, page: { limit: number; offset: number; endpointId?: string }) {
      const list = await rows<DeliveryRow>(
        db,
        sql`SELECT d.* FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
            WHERE e.user_id = ${userId} AND (${page.endpointId ?? null}::text IS NULL OR d.endpoint_id = ${page.endpointId ?? null})
            ORDER BY d.created_at DESC, d.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
      );
      return list.map(deliveryView);
    },

    /** Sends a delivery again now, whatever became of it (an endpoint fixed after its attempts ran out). */
    async resend(userId: string, id: string) {
      return db.transaction(async (tx) => {
        const r = await one<DeliveryRow>(
          tx,
          sql`UPDATE webhook_deliveries d SET status = 'pending' FROM webhook_endpoints e
              WHERE d.id = ${id} AND e.id = d.endpoint_id AND e.user_id = ${userId} AND e.status = 'active' RETURNING d.*`,
        );
        if (!r) throw notFound('Webhook delivery (or its endpoint is disabled)');
        await work.change(tx).enqueue(DELIVER_JOB, { deliveryId: id }).commit();
        return deliveryView(r);
      });
    },

    /** The fan-out job: a delivery row and a delivery job per active endpoint of the customer that takes the event. */
    async fanout(e: WebhookEventJob) {
      await db.transaction(async (tx) => {
        const made = await rows<{ id: string }>(
          tx,
          sql`INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, body, status, created_at)
              SELECT ${prefixedId('whd')} || '_' || w.id, w.id, ${e.id}, ${e.type}, ${e.body}, 'pending', ${clock.now()}
              FROM webhook_endpoints w WHERE w.user_id = ${e.userId} AND w.status = 'active' AND ${e.type} = ANY(w.events)
              ON CONFLICT (endpoint_id, event_id) DO NOTHING RETURNING id`,
        );
        const change = work.change(tx);
        for (const d of made) change.enqueue(DELIVER_JOB, { deliveryId: d.id });
        await change.commit();
      });
    },

    deliver,
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
