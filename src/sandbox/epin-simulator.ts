import type { FastifyInstance } from 'fastify';
import { randomDigits } from '../lib/crypto.js';
import type { Services } from '../platform/services.js';

/**
 * The e-PIN (recharge card) seller's simulator (issue 45, src/providers/epins.ts's protocol), mounted in sandbox mode
 * at /sandbox/providers/epins (EPIN_PROVIDER_URL's sandbox default) behind the key `sandbox-key-epins`. It sells every
 * network's cards of ₦100, ₦200, ₦500 and ₦1,000 below their face value (mtn 3 %, the others 4 % off). Magic
 * quantities (docs/sandbox.md): one ending in 11 fails the whole batch; one ending in 22 delivers half of it (rounded
 * down) and never the rest; one ending in 33 answers `pending` and, asked again, delivers half. A batch is kept by
 * its request id: a repeat or a requery answers the same PINs.
 */
export const EPIN_SIMULATOR_BASE = '/sandbox/providers/epins';
const KEY = 'sandbox-key-epins';
const DENOMINATIONS = [100, 200, 500, 1000];
const NETWORKS = ['mtn', 'airtel', 'glo', '9mobile'] as const;
const DISCOUNT: Record<string, number> = { mtn: 0.03, airtel: 0.04, glo: 0.04, '9mobile': 0.04 };
const PIN_DIGITS: Record<string, number> = { mtn: 17, airtel: 16, glo: 15, '9mobile': 15 };

type Batch = { requestId: string; status: 'delivered' | 'partial' | 'pending' | 'failed'; pins: { pin: string; serial: string }[] };
type Asked = { requestId: string; network: string; denomination: number; quantity: number; later?: boolean };

function cards(network: string, n: number) {
  return Array.from({ length: n }, () => ({ pin: randomDigits(PIN_DIGITS[network]), serial: `SN${randomDigits(12)}` }));
}

function made(b: Asked): Batch {
  const q = b.quantity;
  const half = Math.floor(q / 2);
  const end = q % 100;
  if (end === 11) return { requestId: b.requestId, status: 'failed', pins: [] };
  if (end === 22 || (end === 33 && b.later))
    return { requestId: b.requestId, status: half ? 'partial' : 'failed', pins: cards(b.network, half) };
  if (end === 33) return { requestId: b.requestId, status: 'pending', pins: [] };
  return { requestId: b.requestId, status: 'delivered', pins: cards(b.network, q) };
}

export function registerEpinSimulator(app: FastifyInstance, _services: Services) {
  const batches = new Map<string, { asked: Asked; batch: Batch }>();
  const denied = (headers: Record<string, unknown>) => headers['x-api-key'] !== KEY;
  app.get(`${EPIN_SIMULATOR_BASE}/prices`, async (req, reply) => {
    if (denied(req.headers)) return reply.status(401).send({ status: 'failed', message: 'invalid api key' });
    return {
      prices: NETWORKS.flatMap((network) =>
        DENOMINATIONS.map((d) => ({ network, denomination: d, unitPrice: Math.round(d * (1 - DISCOUNT[network]) * 100) / 100 })),
      ),
    };
  });
  app.post(`${EPIN_SIMULATOR_BASE}/batches`, async (req, reply) => {
    if (denied(req.headers)) return reply.status(401).send({ status: 'failed', message: 'invalid api key' });
    const b = (req.body ?? {}) as Partial<Asked>;
    const ok =
      typeof b.requestId === 'string' &&
      NETWORKS.includes(b.network as (typeof NETWORKS)[number]) &&
      DENOMINATIONS.includes(Number(b.denomination)) &&
      Number.isInteger(b.quantity) &&
      b.quantity! >= 1 &&
      b.quantity! <= 1000;
    if (!ok)
      return reply.status(400).send({ status: 'failed', message: 'requestId, network, denomination and quantity (1-1000) are required' });
    const known = batches.get(b.requestId!);
    if (known) return known.batch;
    const asked = b as Asked;
    const batch = made(asked);
    batches.set(asked.requestId, { asked, batch });
    return batch;
  });
  app.get(`${EPIN_SIMULATOR_BASE}/batches/:id`, async (req, reply) => {
    if (denied(req.headers)) return reply.status(401).send({ status: 'failed', message: 'invalid api key' });
    const id = (req.params as { id: string }).id;
    const known = batches.get(id);
    if (!known) return reply.status(404).send({ status: 'not_found', message: 'no such batch' });
    if (known.batch.status === 'pending') known.batch = made({ ...known.asked, later: true });
    return known.batch;
  });
}
