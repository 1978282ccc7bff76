import { sql } from 'drizzle-orm';
import { one, rows } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { prefixedId } from '../../kernel/ids.js';
import { encrypt, randomToken } from '../../lib/crypto.js';
import { checkUrl, endpointView, modeOf, type EndpointRow, type WebhookDeps, type WebhookEvent } from './webhook-model.js';

const MAX_ENDPOINTS = 5;

/** createEndpoint: a new endpoint of this world (at most MAX_ENDPOINTS active); its secret is in this answer only. */
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
  return { endpoint: endpointView(r!, modeOf(deps)), secret };
}

/** listEndpoints: the customer's endpoints, newest first. */
export async function listEndpoints(deps: WebhookDeps, userId: string) {
  const list = await rows<EndpointRow>(deps.db, sql`SELECT * FROM webhook_endpoints WHERE user_id = ${userId} ORDER BY created_at DESC`);
  return list.map((r) => endpointView(r, modeOf(deps)));
}

/** disableEndpoint: the owner turns an endpoint off (again: no change); null when it has none of that id here. */
export async function disableEndpoint(deps: WebhookDeps, userId: string, id: string) {
  const { db, clock } = deps;
  const r = await one<EndpointRow>(
    db,
    sql`UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = COALESCE(disabled_reason, 'disabled by its owner'),
          disabled_at = COALESCE(disabled_at, ${clock.now()}) WHERE id = ${id} AND user_id = ${userId} RETURNING *`,
  );
  return r ? endpointView(r, modeOf(deps)) : null;
}
