import type { Db } from '../../../db/client.js';
import type { Clock } from '../../../kernel/clock.js';
import type { ProviderId } from '../../../providers/vtu/types.js';

/**
 * A kind's provider simulator (issue 32: a kind is one folder): how the sandbox's providers answer this kind, written
 * in the kind's folder as plain data and functions (`kinds/<kind>/simulator.ts`), with no Fastify and no sandbox
 * import. A kind names it lazily (`ServiceKind.simulator: () => import('./simulator.js')...`), so only the sandbox
 * loads it; src/sandbox/vtu/ mounts every listed kind's simulator on its providers' routes, in sandbox mode only.
 *
 * The providers' protocols (VTpass-style C, order-and-query D, SME data A and B), their credentials, the order
 * engine (the sandbox's tables, the magic endings of README "VTU sandbox") and the protocol's answers to a placed
 * order (duplicate, low float, HTTP 500, held, slow and malformed answers) stay in the sandbox; a kind declares:
 *  - `vtpass`: its part of provider C's routes: the serviceIDs of /api/pay it takes, its /api/services identifiers and
 *    /api/service-variations serviceIDs, and its fields in the answer about one of its orders (pay and requery);
 *  - `orders`: its part of provider D's: its product in POST /api/v1/orders, its /api/v1/catalogue/<name> lists and
 *    its fields in an order's query answer;
 *  - `routes`: routes of its own under a provider's simulator, behind that provider's credentials (a flight search);
 *  - `controls`: sandbox control routes (plain JSON, no credentials), such as posting a provider's webhook.
 * A handler answers a plain object (JSON, HTTP 200), a `SimResponse` (another status, or a raw body) or a `SimPlaced`
 * (an order placed through `env.placeOrder`: the provider's protocol answers around it).
 */
export interface KindSimulator {
  vtpass?: VtpassPart;
  orders?: OrderQueryPart;
  routes?: Partial<Record<ProviderId, SimRoute[]>>;
  controls?: SimRoute[];
}

export interface VtpassPart {
  /** The serviceIDs of POST /api/pay this kind takes (the order's `product`). */
  serviceIds: readonly string[];
  /** GET /api/services?identifier=<key>: the content list. */
  services?: Record<string, (query: Record<string, unknown>) => unknown[]>;
  /** GET /api/service-variations?serviceID=<key>: the content. */
  variations?: Record<string, (query: Record<string, unknown>) => unknown>;
  pay(body: Record<string, any>, env: SimulatorEnv): Promise<SimResult>;
  /** Fields the answer about one of its orders adds (pay and requery). */
  answer?(order: SimOrder): Record<string, unknown>;
}

export interface OrderQueryPart {
  /** The `product` of POST /api/v1/orders this kind takes (the order's `service`). */
  product: string;
  /** GET /api/v1/catalogue/<key>: the items. */
  catalogues?: Record<string, () => unknown[]>;
  order(body: Record<string, any>, env: SimulatorEnv): Promise<SimResult>;
  /** The query answer's `result` for one of its orders, and whether a delivered one is partial (ORDER_PARTIAL). */
  progress?(order: SimOrder): { result: Record<string, unknown>; partial: boolean };
}

export interface SimRoute {
  method: 'GET' | 'POST';
  /** Under the provider's simulator base (routes) or absolute (controls: /sandbox/...). */
  path: string;
  handler(req: SimRequest, env: SimulatorEnv): Promise<SimResult>;
}

export interface SimRequest {
  query: Record<string, any>;
  body: Record<string, any>;
  params: Record<string, string>;
}

/** A plain object is a JSON answer with HTTP 200. */
export type SimResult = SimResponse | SimPlaced | Record<string, unknown>;

/** An answer with its own status, or a raw body of `type` (an HTML error page, a truncated JSON). */
export class SimResponse {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly type?: string,
  ) {}
}

/** An order placed through the engine; the provider's protocol answers it (`answer(order)` once it stands). */
export class SimPlaced {
  constructor(
    readonly placed: PlaceResult,
    readonly answer?: (order: SimOrder) => unknown,
  ) {}
}

/** What the sandbox lends a kind's simulator: its database and clock, the order engine, the sandbox's settings. */
export interface SimulatorEnv {
  db: Db;
  clock: Clock;
  config: SimulatorConfig;
  /** Places an order at `provider` (idempotent by request id; the float pays `charge` or the amount). */
  placeOrder(o: PlaceOrder): Promise<PlaceResult>;
  /** An order; a pending one whose time has come settles now. */
  queryOrder(provider: string, requestId: string): Promise<SimOrder | null>;
  /** The outcome the recipient's last four digits choose (README "VTU sandbox"). */
  magicOf(recipient: string): SimMagic;
  /** "8888": the request is held before the provider records anything. */
  arriveLate(recipient: string): Promise<void>;
  /** "4040": every query about the order is a 503. */
  neverSettles(order: { recipient: string }): boolean;
  /** POSTs to one of the service's own routes in-process (a provider's webhook); its status. */
  post(url: string, headers: Record<string, string>, payload: string): Promise<number>;
  /** How long an order resolves after it was pending ("2222"). */
  pendingResolveMs: number;
}

/**
 * The service's settings a simulator reads (a part of config.ts's Config, named here so the kinds' list, which the
 * configuration reads, imports no configuration).
 */
export interface SimulatorConfig {
  vtu: { sandboxHoldMs: number; providers: Record<ProviderId, { key: string; secret?: string }> };
  airtimeCash: { expiresMs: number };
}

export type SimMagic =
  | 'fail'
  | 'pending_ok'
  | 'pending_fail'
  | 'never'
  | 'timeout'
  | 'refuse_a'
  | 'http500'
  | 'malformed'
  | 'slow'
  | 'late'
  | 'partial'
  | 'pending_partial'
  | 'none';

export interface SimOrder {
  provider: string;
  request_id: string;
  service: string;
  recipient: string;
  product: string | null;
  amount: string;
  status: 'pending' | 'delivered' | 'failed';
  result: Record<string, any> | null;
  message: string | null;
  created_at: Date;
}

export interface PlaceOrder {
  provider: string;
  requestId: string;
  service: string;
  recipient: string;
  product?: string;
  amount: bigint;
  meterType?: string;
  quantity?: number;
  /** Protocol-specific delivery facts (an eSIM's ICCID, a social order's counts), merged into the order's result. */
  result?: Record<string, unknown>;
  /** What the float pays when the order is placed, when not the amount (a partly completed order pays its part). */
  charge?: bigint;
}

export type PlaceResult =
  | { kind: 'placed'; order: SimOrder; magic: SimMagic }
  | { kind: 'duplicate'; order: SimOrder }
  | { kind: 'low_float' }
  | { kind: 'http500' };

/** Kobo from a naira amount in a request (a number or a numeric string), or null when not a positive amount. */
export const toKoboNum = (n: unknown): bigint | null => {
  const v = typeof n === 'string' ? Number(n) : typeof n === 'number' ? n : NaN;
  if (!Number.isFinite(v) || v <= 0) return null;
  return BigInt(Math.round(v * 100));
};
/** Naira with two decimals, as providers write amounts. */
export const nairaStr = (k: bigint | string) => (Number(BigInt(k)) / 100).toFixed(2);
