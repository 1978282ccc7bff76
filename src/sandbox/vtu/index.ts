import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { rows } from '../../db/client.js';
import type { Services } from '../../platform/services.js';
import { ensureFloatRows } from './engine.js';
import { kindSimulators, mountKindControls, simulatorEnv } from './kinds.js';
import { registerOrderQuerySimulator } from './order-query.js';
import { registerSmeDataSimulator } from './sme-data.js';
import { registerVtpassSimulator } from './vtpass.js';

/**
 * VTU provider simulators (docs/design.md §8), mounted as routes of this app under /sandbox/providers/<a-d>/ in
 * sandbox mode. Adapters reach them by base URL like any real provider; while the app is not listening (tests)
 * the VTU transport carries those requests in-process. GET /sandbox/vtu/deliveries?requestId= shows the
 * simulators' delivery record (tests prove "never delivered twice" with it).
 */
export const SIMULATOR_BASE = '/sandbox/providers';

export async function registerVtuSimulators(app: FastifyInstance, services: Services) {
  await ensureFloatRows(services.db, ['a', 'b', 'c', 'd']);
  // The kinds' own parts of the providers (modules/vtu/kinds/<kind>/simulator.ts), mounted with their protocols.
  const kinds = await kindSimulators();
  const env = simulatorEnv(app, services);
  registerSmeDataSimulator(app, services, 'a', `${SIMULATOR_BASE}/a`, kinds, env);
  registerSmeDataSimulator(app, services, 'b', `${SIMULATOR_BASE}/b`, kinds, env);
  registerVtpassSimulator(app, services, `${SIMULATOR_BASE}/c`, kinds, env);
  registerOrderQuerySimulator(app, services, `${SIMULATOR_BASE}/d`, kinds, env);
  mountKindControls(app, kinds, env);

  app.get('/sandbox/vtu/deliveries', async (req) => {
    const q = (req.query ?? {}) as Record<string, string | undefined>;
    const list = await rows<{
      provider: string;
      request_id: string;
      service: string;
      recipient: string;
      status: string;
      amount: string;
      created_at: Date;
    }>(
      services.db,
      q.requestId
        ? sql`SELECT provider, request_id, service, recipient, status, amount::text AS amount, created_at FROM sandbox_vtu_orders WHERE request_id = ${q.requestId} ORDER BY created_at`
        : sql`SELECT provider, request_id, service, recipient, status, amount::text AS amount, created_at FROM sandbox_vtu_orders
              WHERE (${q.recipient ?? null}::text IS NULL OR recipient = ${q.recipient ?? null}) ORDER BY created_at DESC LIMIT 200`,
    );
    return {
      ok: true,
      items: list.map((o) => ({
        provider: o.provider,
        requestId: o.request_id,
        service: o.service,
        recipient: o.recipient,
        status: o.status,
        amount: Number(o.amount) / 100,
        createdAt: new Date(o.created_at).toISOString(),
      })),
    };
  });
}
