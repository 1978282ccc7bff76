import { sql } from 'drizzle-orm';
import { one, rows } from '../../db/client.js';
import { prefixedId } from '../../kernel/ids.js';
import {
  DELIVER_JOB,
  deliveryView,
  modeOf,
  webhookBodyOf,
  type DeliveryRow,
  type WebhookDeps,
  type WebhookEventJob,
} from './webhook-model.js';

/** listDeliveries: the customer's delivery log in this world, newest first, of one endpoint or all. */
export async function listDeliveries(deps: WebhookDeps, userId: string, page: { limit: number; offset: number; endpointId?: string }) {
  const list = await rows<DeliveryRow>(
    deps.db,
    sql`SELECT d.* FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE e.user_id = ${userId} AND (${page.endpointId ?? null}::text IS NULL OR d.endpoint_id = ${page.endpointId ?? null})
        ORDER BY d.created_at DESC, d.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
  );
  return list.map((r) => deliveryView(r, modeOf(deps)));
}

/**
 * Sends a delivery again now, whatever became of it (an endpoint fixed after its attempts ran out); null when this world
 * has no such delivery of the customer's on an active endpoint.
 */
export async function resend(deps: WebhookDeps, userId: string, id: string) {
  const { db, work } = deps;
  return db.transaction(async (tx) => {
    const r = await one<DeliveryRow>(
      tx,
      sql`UPDATE webhook_deliveries d SET status = 'pending' FROM webhook_endpoints e
          WHERE d.id = ${id} AND e.id = d.endpoint_id AND e.user_id = ${userId} AND e.status = 'active' RETURNING d.*`,
    );
    if (!r) return null;
    await work.change(tx).enqueue(DELIVER_JOB, { deliveryId: id }).commit();
    return deliveryView(r, modeOf(deps));
  });
}

/** The fan-out job: a delivery row and a delivery job per active endpoint of the customer that takes the event. */
export async function fanout({ db, clock, work }: WebhookDeps, e: WebhookEventJob) {
  await db.transaction(async (tx) => {
    const made = await rows<{ id: string }>(
      tx,
      sql`INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, body, status, created_at)
          SELECT ${prefixedId('whd')} || '_' || w.id, w.id, ${e.id}, ${e.type}, ${webhookBodyOf(e)}, 'pending', ${clock.now()}
          FROM webhook_endpoints w WHERE w.user_id = ${e.userId} AND w.status = 'active' AND ${e.type} = ANY(w.events)
          ON CONFLICT (endpoint_id, event_id) DO NOTHING RETURNING id`,
    );
    const change = work.change(tx);
    for (const d of made) change.enqueue(DELIVER_JOB, { deliveryId: d.id });
    await change.commit();
  });
}
