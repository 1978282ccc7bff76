import { sql } from 'drizzle-orm';
import { one, rows } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { prefixedId } from '../../kernel/ids.js';
import { encrypt, randomToken } from '../../lib/crypto.js';
import { checkUrl, endpointView, type EndpointRow, type WebhookDeps, type WebhookEvent } from './webhook-model.js';

const MAX_ENDPOINTS = 5;

/** createEndpoint: a new endpoint (at most MAX_ENDPOINTS active); its secret is in this answer only. */
export async function createEndpoint(deps: WebhookDeps, userId: string, input: { url: string; events: WebhookEvent[] }) {
  const { db, clock, secretKey } = deps;
  const url = await checkUrl(deps, input.url);
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
}

/** listEndpoints: the customer's endpoints, newest first. */
export async function listEndpoints({ db }: WebhookDeps, userId: string) {
  const list = await rows<EndpointRow>(db, sql`SELECT * FROM webhook_endpoints WHERE user_id = ${userId} ORDER BY created_at DESC`);
  return list.map(endpointView);
}

/** disableEndpoint: the owner turns an endpoint off (again: no change). */
export async function disableEndpoint({ db, clock }: WebhookDeps, userId: string, id: string) {
  const r = await one<EndpointRow>(
    db,
    sql`UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = COALESCE(disabled_reason, 'disabled by its owner'),
          disabled_at = COALESCE(disabled_at, ${clock.now()}) WHERE id = ${id} AND user_id = ${userId} RETURNING *`,
  );
  if (!r) throw notFound('Webhook endpoint');
  return endpointView(r);
}
