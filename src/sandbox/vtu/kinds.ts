import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../platform/services.js';
import { INBOUND_KINDS, KINDS } from '../../modules/vtu/kinds/index.js';
import {
  SimPlaced,
  SimResponse,
  type KindSimulator,
  type PlaceResult,
  type SimOrder,
  type SimResult,
  type SimRoute,
  type SimulatorEnv,
} from '../../modules/vtu/kinds/simulator.js';
import { arriveLate, magicOf, neverSettles, PENDING_RESOLVE_MS, placeOrder, queryOrder } from './engine.js';

/**
 * The service kinds' simulators (modules/vtu/kinds/simulator.ts), loaded from the kinds' list (each kind names its
 * own lazily) and mounted on the providers' simulators: each protocol takes its parts (vtpass.ts, order-query.ts),
 * `routes` go under the provider's base behind its credentials, `controls` on the app.
 */
export async function kindSimulators(): Promise<KindSimulator[]> {
  const out: KindSimulator[] = [];
  for (const k of [...KINDS, ...INBOUND_KINDS]) if (k.simulator) out.push(await k.simulator());
  return out;
}

/** What a kind's simulator gets: the engine bound to the service's database and clock, and the sandbox's settings. */
export function simulatorEnv(app: FastifyInstance, services: Services): SimulatorEnv {
  const { db, clock, config } = services;
  return {
    db,
    clock,
    config,
    placeOrder: (o) => placeOrder(db, clock, o),
    queryOrder: (provider, requestId) => queryOrder(db, clock, provider, requestId),
    magicOf,
    arriveLate: (recipient) => arriveLate(recipient, config.vtu.sandboxHoldMs),
    neverSettles,
    post: async (url, headers, payload) => (await app.inject({ method: 'POST', url, headers, payload })).statusCode,
    pendingResolveMs: PENDING_RESOLVE_MS,
  };
}

/** A protocol's answer to an order a kind placed (vtpassReply, orderReply). */
export type ProtocolDoor = (placed: PlaceResult, reply: FastifyReply, answer?: (order: SimOrder) => unknown) => Promise<unknown>;

const objectOf = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, any>) : {});

/** Sends a kind's handler's result: JSON, a status with a body, or the protocol's answer to a placed order. */
export function sendResult(result: SimResult, reply: FastifyReply, door: ProtocolDoor): unknown {
  if (result instanceof SimPlaced) return door(result.placed, reply, result.answer);
  if (result instanceof SimResponse) {
    reply.status(result.status);
    if (result.type) reply.type(result.type);
    return reply.send(result.body);
  }
  return result;
}

/** Runs a kind's route handler on a request. */
export async function runRoute(route: SimRoute, req: FastifyRequest, reply: FastifyReply, env: SimulatorEnv, door: ProtocolDoor) {
  const result = await route.handler(
    { query: objectOf(req.query), body: objectOf(req.body), params: objectOf(req.params) as Record<string, string> },
    env,
  );
  return sendResult(result, reply, door);
}

/** The kinds' own routes at `provider`, on its simulator's (credential-checked) scope. */
export function mountKindRoutes(
  r: FastifyInstance,
  kinds: KindSimulator[],
  provider: 'a' | 'b' | 'c' | 'd',
  env: SimulatorEnv,
  door: ProtocolDoor,
) {
  for (const route of kinds.flatMap((k) => k.routes?.[provider] ?? [])) {
    const handler = (req: FastifyRequest, reply: FastifyReply) => runRoute(route, req, reply, env, door);
    if (route.method === 'GET') r.get(route.path, handler);
    else r.post(route.path, handler);
  }
}

/** The kinds' sandbox control routes (plain JSON, no credentials). */
export function mountKindControls(app: FastifyInstance, kinds: KindSimulator[], env: SimulatorEnv) {
  const door: ProtocolDoor = async () => {
    throw new Error('a control route places no order');
  };
  for (const route of kinds.flatMap((k) => k.controls ?? [])) {
    const handler = (req: FastifyRequest, reply: FastifyReply) => runRoute(route, req, reply, env, door);
    if (route.method === 'GET') app.get(route.path, handler);
    else app.post(route.path, handler);
  }
}
