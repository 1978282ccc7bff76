import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../platform/services.js';
import {
  arriveLate,
  floatBalance,
  fundFloat,
  nairaStr,
  placeOrder,
  neverSettles,
  queryOrder,
  sleep,
  toKoboNum,
  verifyNotFound,
  type PlaceResult,
  type SimOrder,
} from './engine.js';
import type { KindSimulator, OrderQueryPart, SimulatorEnv } from '../../modules/vtu/kinds/simulator.js';
import { mountKindRoutes, sendResult, type ProtocolDoor } from './kinds.js';

/** Simulator of provider D, order-and-query protocol (docs/design.md §11), mounted at /sandbox/providers/d. */
const BET_COMPANIES = [
  ['bet9ja', 'Bet9ja'],
  ['sportybet', 'SportyBet'],
  ['betking', 'BetKing'],
  ['1xbet', '1xBet'],
  ['nairabet', 'NairaBet'],
  ['merrybet', 'MerryBet'],
];
const EXAMS: { code: string; name: string; price: number; needsProfile?: boolean }[] = [
  { code: 'waec', name: 'WAEC Result Checker PIN', price: 3900 },
  { code: 'waec-registration', name: 'WAEC Registration PIN', price: 18000 },
  { code: 'neco', name: 'NECO Result Token', price: 1300 },
  { code: 'jamb-utme', name: 'JAMB UTME PIN', price: 6200, needsProfile: true },
  { code: 'jamb-de', name: 'JAMB Direct Entry PIN', price: 6200, needsProfile: true },
];

/** An order's query answer; a kind's part gives the result of its orders (a social order's progress). */
function orderStatus(o: SimOrder, part?: OrderQueryPart) {
  const progress = part?.progress?.(o) ?? null;
  const status =
    o.status === 'delivered'
      ? progress?.partial
        ? 'ORDER_PARTIAL'
        : 'ORDER_COMPLETED'
      : o.status === 'failed'
        ? 'ORDER_CANCELLED'
        : 'ORDER_PROCESSING';
  return {
    status,
    order_id: `D-${o.request_id.slice(-12)}`,
    reference: o.request_id,
    amount: nairaStr(o.amount),
    ...(o.status === 'delivered' && !progress ? { result: o.result ?? {} } : {}),
    ...(progress ? { result: progress.result } : {}),
    ...(o.message ? { message: o.message } : {}),
  };
}

/**
 * Provider D's answer to an order the simulator placed: the door's refusals (503, low float), the held, slow and
 * malformed answers of the magic endings, else ORDER_RECEIVED (a repeated reference is the same order: received
 * again, never placed twice).
 */
async function orderReply(placed: PlaceResult, reply: FastifyReply, config: Services['config']) {
  if (placed.kind === 'http500') return reply.status(503).send('Service Unavailable');
  if (placed.kind === 'low_float')
    return reply.status(402).send({ status: 'ORDER_REJECTED', code: 'INSUFFICIENT_BALANCE', message: 'Insufficient wallet balance' });
  if (placed.kind === 'placed') {
    if (placed.magic === 'timeout') await sleep(config.vtu.sandboxHoldMs);
    if (placed.magic === 'slow') await sleep(config.vtu.sandboxSlowMs);
    if (placed.magic === 'malformed') return reply.status(202).type('application/json').send('{"status":"ORDER_REC');
  }
  const reference = placed.order.request_id;
  return reply.status(202).send({ status: 'ORDER_RECEIVED', order_id: `D-${reference.slice(-12)}`, reference });
}

/** What provider D's routes share: the services, the kinds' order parts and the door their answers go through. */
interface OrderSim {
  services: Services;
  partOf: (product: unknown) => OrderQueryPart | undefined;
  env: SimulatorEnv;
  door: ProtocolDoor;
}

const bodyOf = (req: FastifyRequest) => (req.body && typeof req.body === 'object' ? (req.body as Record<string, any>) : {});

function verifyCustomer(req: FastifyRequest, reply: FastifyReply) {
  const b = bodyOf(req);
  const customer = String(b.customer_id ?? '');
  if (b.service !== 'betting' || !BET_COMPANIES.some(([c]) => c === b.service_code) || !customer)
    return reply.status(400).send({ status: 'INVALID', message: 'service_code and customer_id are required' });
  if (verifyNotFound(customer)) return { status: 'NOT_FOUND', message: 'Customer ID not found' };
  return { status: 'OK', customer_name: `Sandbox Punter ${customer.slice(-4)}` };
}

/** A betting or exam order's amount (an exam's is its price times the quantity), or the refusal's message. */
function orderAmount(b: Record<string, any>, amount: bigint, quantity: number): bigint | string {
  if (b.product === 'betting') return BET_COMPANIES.some(([c]) => c === b.service_code) ? amount : 'Unknown betting company';
  if (b.product !== 'exam') return 'Unknown product';
  const exam = EXAMS.find((e) => e.code === b.service_code);
  if (!exam) return 'Unknown exam product';
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > 10) return 'quantity must be 1-10';
  if (exam.needsProfile && !b.profile_id) return 'profile_id is required for JAMB';
  return BigInt(exam.price * 100 * quantity);
}

/** An order: a kind's part takes its own products; betting and exams are placed here. */
async function order(sim: OrderSim, req: FastifyRequest, reply: FastifyReply) {
  const { db, clock, config } = sim.services;
  const b = bodyOf(req);
  const reference = typeof b.reference === 'string' ? b.reference : '';
  const part = sim.partOf(b.product);
  if (part) return sendResult(await part.order(b, sim.env), reply, sim.door);
  const customer = typeof b.customer_id === 'string' ? b.customer_id : '';
  const quantity = Number(b.quantity ?? 1);
  const given = toKoboNum(b.amount);
  if (!reference || reference.length > 80 || !customer || !given)
    return reply.status(400).send({ status: 'ORDER_REJECTED', message: 'reference, customer_id and amount are required' });
  const amount = orderAmount(b, given, quantity);
  if (typeof amount === 'string') return reply.status(400).send({ status: 'ORDER_REJECTED', message: amount });
  await arriveLate(customer, config.vtu.sandboxHoldMs);
  const placed = await placeOrder(db, clock, {
    provider: 'd',
    requestId: reference,
    service: b.product,
    recipient: customer,
    product: String(b.service_code),
    amount,
    quantity,
  });
  return orderReply(placed, reply, config);
}

async function queryOne(sim: OrderSim, req: FastifyRequest, reply: FastifyReply) {
  const { db, clock } = sim.services;
  const o = await queryOrder(db, clock, 'd', String((req.params as any).reference));
  if (!o) return reply.status(404).send({ status: 'ORDER_NOT_FOUND', message: 'No order with this reference' });
  if (neverSettles(o)) return reply.status(503).send('Service Unavailable');
  return orderStatus(o, sim.partOf(o.service));
}

async function fund({ services: { db, clock } }: OrderSim, req: FastifyRequest, reply: FastifyReply) {
  const b = bodyOf(req);
  const amount = toKoboNum(b.amount);
  if (!amount || typeof b.reference !== 'string' || !b.reference)
    return reply.status(400).send({ status: 'INVALID', message: 'amount and reference are required' });
  return { balance: nairaStr(await fundFloat(db, clock, 'd', amount, b.reference)) };
}

/**
 * Provider D's routes, with the kinds' parts (`kinds`: their order parts and their own routes at D, see
 * modules/vtu/kinds/simulator.ts).
 */
export function registerOrderQuerySimulator(
  app: FastifyInstance,
  services: Services,
  base: string,
  kinds: KindSimulator[],
  env: SimulatorEnv,
) {
  const { db, config } = services;
  const key = config.vtu.providers.d.key;
  const auth = async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.headers['x-api-key'] !== key) return reply.status(401).send({ status: 'UNAUTHORIZED', message: 'Invalid API key' });
  };
  const parts = kinds.flatMap((k) => (k.orders ? [k.orders] : []));
  const partOf = (product: unknown) => parts.find((p) => p.product === product);
  const door: ProtocolDoor = (placed, reply) => orderReply(placed, reply, config);
  const sim: OrderSim = { services, partOf, env, door };

  app.register(
    async (r) => {
      r.addHook('onRequest', auth);
      r.get('/api/v1/catalogue/betting', async () => ({ items: BET_COMPANIES.map(([code, name]) => ({ code, name })) }));
      for (const [name, items] of parts.flatMap((p) => Object.entries(p.catalogues ?? {})))
        r.get(`/api/v1/catalogue/${name}`, async () => ({ items: items() }));
      r.get('/api/v1/catalogue/exams', async () => ({ items: EXAMS.map((e) => ({ code: e.code, name: e.name, price: e.price })) }));
      r.post('/api/v1/verify', async (req, reply) => verifyCustomer(req, reply));
      r.post('/api/v1/orders', (req, reply) => order(sim, req, reply));
      r.get('/api/v1/orders/:reference', (req, reply) => queryOne(sim, req, reply));
      r.get('/api/v1/balance', async () => ({ balance: nairaStr(await floatBalance(db, 'd')) }));
      r.post('/api/v1/fund', (req, reply) => fund(sim, req, reply));
      mountKindRoutes(r, kinds, 'd', env, door);
    },
    { prefix: base },
  );
}
