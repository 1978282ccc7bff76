import { sql } from 'drizzle-orm';
import { one, rows, type Executor } from '../../db/client.js';
import { codeText } from '../../kernel/code-texts.js';
import { AppError } from '../../kernel/errors.js';
import { decrypt } from '../../lib/crypto.js';
import { emailsOf, userIdByEmail } from '../identity/api.js';
import { codeTextsFor } from '../notifications/api.js';
import { NotPublicError } from '../../lib/public-address.js';
import { pinnedPost } from '../../lib/pinned-post.js';
import type { KeyMode } from './keys.js';
import { DELIVERY_ATTEMPTS, signatureOf, urlOf, type DeliveryRow, type WebhookDeps } from './webhook-model.js';

const TIMEOUT_MS = 10_000;

/** One attempt; a failure throws (the job queue retries it) except on the last attempt, which disables the endpoint. */
export async function deliver(deps: WebhookDeps, deliveryId: string, attempt: number): Promise<void> {
  const { db, clock, secretKey } = deps;
  const d = await one<DeliveryRow & { url: string; secret_encrypted: string; endpoint_status: string; user_id: string }>(
    db,
    sql`SELECT d.*, e.url, e.secret_encrypted, e.status AS endpoint_status, e.user_id::text AS user_id
        FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE d.id = ${deliveryId}`,
  );
  if (!d || d.status === 'succeeded') return;
  if (d.endpoint_status !== 'active') {
    await record(deps, deliveryId, 'failed', null, null, 'the endpoint is disabled');
    return;
  }
  const t = Math.floor(clock.now().getTime() / 1000);
  const started = performance.now();
  let status: number | null = null;
  let error: string | null = null;
  try {
    // Resolved once and checked public outside the sandbox, and connected to that address only (no DNS rebinding).
    const res = await pinnedPost(urlOf(deps, d.url), {
      headers: {
        'content-type': 'application/json',
        'webhook-id': d.event_id,
        'webhook-signature': signatureOf(decrypt(secretKey, d.secret_encrypted), t, d.body),
      },
      body: d.body,
      timeoutMs: TIMEOUT_MS,
      resolver: deps.sandbox ? null : deps.resolver,
    });
    status = res.status;
    if (status < 200 || status >= 300) error = `answered ${status}`;
  } catch (err) {
    error = failureOf(err);
  }
  const ms = Math.round(performance.now() - started);
  if (!error) return void (await record(deps, deliveryId, 'succeeded', status, ms, null));
  const last = attempt >= DELIVERY_ATTEMPTS;
  await record(deps, deliveryId, last ? 'failed' : 'pending', status, ms, error);
  if (last) return disable(deps, d.endpoint_id, d.user_id, d.url, `every attempt failed for about 3 days (last: ${error})`);
  throw Object.assign(new Error(`webhook ${deliveryId}: ${error}`), { expected: true });
}

/** What the delivery log says of an attempt that got no answer. */
const failureOf = (err: unknown) =>
  err instanceof AppError
    ? err.message
    : err instanceof NotPublicError
      ? `refused: ${err.message}`
      : (err as Error).name === 'TimeoutError'
        ? 'no answer in 10 s'
        : 'could not connect';

/** A delivery attempt's outcome. */
async function record(
  { db, clock }: WebhookDeps,
  id: string,
  status: string,
  code: number | null,
  ms: number | null,
  error: string | null,
) {
  await rows(
    db,
    sql`UPDATE webhook_deliveries SET status = ${status}, attempts = attempts + 1, response_status = ${code},
          response_ms = ${ms}, error = ${error}, last_attempt_at = ${clock.now()} WHERE id = ${id}`,
  );
}

/**
 * Disables an endpoint whose deliveries kept failing and e-mails its owner. In the test world the owner is the live
 * customer of the shadow account's e-mail: the live world writes that e-mail to its own outbox (liveWorld), inside this
 * transaction, so a disabling that rolls back is disabled and mailed again when retried (at least once).
 */
async function disable(deps: WebhookDeps, endpointId: string, userId: string, url: string, reason: string) {
  const { db, clock, log, liveWorld } = deps;
  await db.transaction(async (tx) => {
    const r = await one<{ id: string }>(
      tx,
      sql`UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = ${reason}, disabled_at = ${clock.now()}
          WHERE id = ${endpointId} AND status = 'active' RETURNING id`,
    );
    const to = (await emailsOf(tx, [userId])).get(userId);
    if (!r || !to) return;
    if (liveWorld) await liveWorld.testEndpointDisabled({ email: to, url, reason });
    else await mailDisabled(deps, tx, { userId, email: to }, { url, reason, mode: 'live' });
  });
  log.warn({ endpointId }, 'webhook endpoint disabled after its deliveries kept failing');
}

/**
 * The e-mail telling `owner` (of this world) that its endpoint of `mode` was disabled: the message template
 * code.webhookDisabled in the owner's language, as an admin worded it (issue 44) or its default.
 */
export async function mailDisabled(
  { outbox }: Pick<WebhookDeps, 'outbox'>,
  tx: Executor,
  owner: { userId: string; email: string },
  n: { url: string; reason: string; mode: KeyMode },
) {
  const texts = await codeTextsFor(tx, { userId: owner.userId });
  const values = { url: n.url, reason: n.reason, mode: texts.webhookModes[n.mode] };
  const t = texts.webhookDisabled;
  await outbox.sendEmail(tx, { to: owner.email, subject: codeText(t.subject, values), text: codeText(t.text, values) });
}

/** The live world's side of a test endpoint disabled in the test world: its customer of that e-mail is mailed. */
export async function testEndpointDisabled(deps: WebhookDeps, n: { email: string; url: string; reason: string }) {
  await deps.db.transaction(async (tx) => {
    const userId = await userIdByEmail(tx, n.email);
    if (userId) await mailDisabled(deps, tx, { userId, email: n.email }, { url: n.url, reason: n.reason, mode: 'test' });
  });
}
