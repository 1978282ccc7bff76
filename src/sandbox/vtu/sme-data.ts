import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../platform/services.js';
import {
  arriveLate,
  floatBalance,
  fundFloat,
  nairaStr,
  neverSettles,
  placeOrder,
  queryOrder,
  sleep,
  toKoboNum,
  type PlaceResult,
  type SimOrder,
} from './engine.js';
import type { KindSimulator, SimulatorEnv } from '../../modules/vtu/kinds/simulator.js';
import { mountKindRoutes, type ProtocolDoor } from './kinds.js';

/**
 * Simulator of providers A and B, SME-data protocol (docs/design.md §11), mounted at /sandbox/providers/a and /b.
 * Both sell the same plans under their own ids and prices; B is a little dearer (it is the fallback).
 */
type Plan = { id: number; network: number; plan_type: string; plan: string; month_validate: string; plan_amount: number };
const BASE: Omit<Plan, 'id'>[] = [
  { network: 1, plan_type: 'SME', plan: '500.0MB', month_validate: '30 days', plan_amount: 140 },
  { network: 1, plan_type: 'SME', plan: '1.0GB', month_validate: '30 days', plan_amount: 280 },
  { network: 1, plan_type: 'SME', plan: '2.0GB', month_validate: '30 days', plan_amount: 560 },
  { network: 1, plan_type: 'SME', plan: '5.0GB', month_validate: '30 days', plan_amount: 1400 },
  { network: 1, plan_type: 'CG', plan: '1.0GB', month_validate: '30 days', plan_amount: 300 },
  { network: 1, plan_type: 'CG', plan: '2.0GB', month_validate: '30 days', plan_amount: 600 },
  { network: 1, plan_type: 'GIFTING', plan: '1.5GB', month_validate: '30 days', plan_amount: 1000 },
  { network: 2, plan_type: 'CG', plan: '1.0GB', month_validate: '30 days', plan_amount: 270 },
  { network: 2, plan_type: 'CG', plan: '2.0GB', month_validate: '30 days', plan_amount: 540 },
  { network: 2, plan_type: 'GIFTING', plan: '1.35GB', month_validate: '14 days', plan_amount: 450 },
  { network: 3, plan_type: 'SME', plan: '1.0GB', month_validate: '30 days', plan_amount: 250 },
  { network: 3, plan_type: 'GIFTING', plan: '1.5GB', month_validate: '30 days', plan_amount: 900 },
  { network: 4, plan_type: 'CG', plan: '1.0GB', month_validate: '30 days', plan_amount: 290 },
  { network: 4, plan_type: 'CG', plan: '2.0GB', month_validate: '30 days', plan_amount: 580 },
  { network: 4, plan_type: 'GIFTING', plan: '1.5GB', month_validate: '30 days', plan_amount: 1000 },
];
export const SME_PLANS: Record<'a' | 'b', Plan[]> = {
  a: BASE.map((p, i) => ({ ...p, id: 200 + i })),
  b: BASE.map((p, i) => ({ ...p, id: 7000 + i, plan_amount: Math.round(p.plan_amount * 1.04) })),
};

function orderBody(o: SimOrder, id: 'a' | 'b', plan: Plan | undefined) {
  const status = o.status === 'delivered' ? 'successful' : o.status === 'failed' ? 'failed' : 'processing';
  return {
    id: Number.parseInt(o.request_id.replace(/\D/g, '').slice(-9) || '0', 10),
    ident: o.request_id,
    network: plan?.network,
    mobile_number: o.recipient,
    plan: plan?.id,
    plan_name: plan?.plan,
    plan_amount: nairaStr(o.amount),
    Status: status,
    api_response:
      o.message ??
      (status === 'successful'
        ? `Dear Customer, You have successfully shared ${plan?.plan ?? ''} Data to ${o.recipient}.`
        : 'Request is being processed'),
    Ported_number: true,
    create_date: new Date(o.created_at).toISOString(),
    provider: id,
  };
}

/** Provider A's or B's answer to an order the simulator placed: the door's refusals, the magic endings, else `answer`. */
async function smeReply(placed: PlaceResult, reply: FastifyReply, config: Services['config'], answer: (order: SimOrder) => unknown) {
  if (placed.kind === 'http500') return reply.status(500).type('text/html').send('<h1>Server Error (500)</h1>');
  if (placed.kind === 'low_float') return reply.status(400).send({ error: ["You can't purchase this plan due to insufficient balance"] });
  if (placed.kind === 'duplicate') return reply.status(200).send(answer(placed.order));
  if (placed.magic === 'timeout') await sleep(config.vtu.sandboxHoldMs);
  if (placed.magic === 'slow') await sleep(config.vtu.sandboxSlowMs);
  if (placed.magic === 'malformed') return reply.status(201).type('application/json').send('{"id":1,"Status":"succ');
  return reply.status(201).send(answer(placed.order));
}

/** Provider A's or B's routes, with the kinds' own routes at it (modules/vtu/kinds/simulator.ts). */
export function registerSmeDataSimulator(
  app: FastifyInstance,
  services: Services,
  id: 'a' | 'b',
  base: string,
  kinds: KindSimulator[],
  env: SimulatorEnv,
) {
  const { db, clock, config } = services;
  const key = config.vtu.providers[id].key;
  const plans = SME_PLANS[id];
  const door: ProtocolDoor = (placed, reply, answer) =>
    smeReply(
      placed,
      reply,
      config,
      answer ??
        ((o) =>
          orderBody(
            o,
            id,
            plans.find((p) => String(p.id) === o.product),
          )),
    );
  const auth = async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.headers.authorization !== `Token ${key}`) return reply.status(401).send({ detail: 'Invalid token.' });
  };
  app.register(
    async (r) => {
      r.addHook('onRequest', auth);
      r.get('/api/data/plans', async () => ({ plans }));
      r.post('/api/data/', async (req, reply) => {
        const b = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, any>;
        const ident = typeof b.ident === 'string' ? b.ident : '';
        const phone = typeof b.mobile_number === 'string' ? b.mobile_number : '';
        const plan = plans.find((p) => p.id === Number(b.plan));
        if (!ident || ident.length > 80 || !/^0\d{10}$/.test(phone))
          return reply.status(400).send({ error: ['ident and an 11-digit mobile_number are required'] });
        if (!plan) return reply.status(400).send({ error: ['Invalid plan id'] });
        if (plan.network !== Number(b.network)) return reply.status(400).send({ error: ['Plan does not belong to this network'] });
        await arriveLate(phone, config.vtu.sandboxHoldMs);
        const placed = await placeOrder(db, clock, {
          provider: id,
          requestId: ident,
          service: 'data',
          recipient: phone,
          product: String(plan.id),
          amount: toKoboNum(plan.plan_amount)!,
        });
        return smeReply(placed, reply, config, (order) => orderBody(order, id, plan));
      });
      r.get('/api/data/query', async (req, reply) => {
        const ident = String((req.query as any)?.ident ?? '');
        const o = ident ? await queryOrder(db, clock, id, ident) : null;
        if (!o) return reply.status(404).send({ detail: 'Not found.' });
        if (neverSettles(o)) return reply.status(503).type('text/html').send('<h1>Service Unavailable</h1>');
        return orderBody(
          o,
          id,
          plans.find((p) => String(p.id) === o.product),
        );
      });
      r.get('/api/user/', async () => ({ user: { username: `sandbox-${id}`, wallet_balance: nairaStr(await floatBalance(db, id)) } }));
      r.post('/api/fund', async (req, reply) => {
        const b = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, any>;
        const amount = toKoboNum(b.amount);
        if (!amount || typeof b.reference !== 'string' || !b.reference)
          return reply.status(400).send({ error: ['amount and reference are required'] });
        return { user: { username: `sandbox-${id}`, wallet_balance: nairaStr(await fundFloat(db, clock, id, amount, b.reference)) } };
      });
      mountKindRoutes(r, kinds, id, env, door);
    },
    { prefix: base },
  );
}
