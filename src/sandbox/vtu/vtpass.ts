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
import type { KindSimulator, SimulatorEnv, VtpassPart } from '../../modules/vtu/kinds/simulator.js';
import { mountKindRoutes, sendResult, type ProtocolDoor } from './kinds.js';

/** Simulator of provider C, VTpass-style protocol (docs/design.md §11), mounted at /sandbox/providers/c. */
const AIRTIME = [
  { serviceID: 'mtn', name: 'MTN Airtime VTU' },
  { serviceID: 'airtel', name: 'Airtel Airtime VTU' },
  { serviceID: 'glo', name: 'GLO Airtime' },
  { serviceID: 'etisalat', name: '9mobile Airtime' },
];
const TV: Record<string, { name: string; variations: [string, string, number][] }> = {
  dstv: {
    name: 'DSTV Subscription',
    variations: [
      ['dstv-padi', 'DStv Padi', 2950],
      ['dstv-yanga', 'DStv Yanga', 4200],
      ['dstv-confam', 'DStv Confam', 7400],
      ['dstv-compact', 'DStv Compact', 12500],
      ['dstv-premium', 'DStv Premium', 29500],
    ],
  },
  gotv: {
    name: 'Gotv Payment',
    variations: [
      ['gotv-smallie', 'GOtv Smallie', 1575],
      ['gotv-jinja', 'GOtv Jinja', 3300],
      ['gotv-jolli', 'GOtv Jolli', 4850],
      ['gotv-max', 'GOtv Max', 7200],
    ],
  },
  startimes: {
    name: 'Startimes Subscription',
    variations: [
      ['nova', 'Nova - 1 Month', 1900],
      ['basic', 'Basic - 1 Month', 3300],
      ['smart', 'Smart - 1 Month', 4200],
      ['classic', 'Classic - 1 Month', 5000],
    ],
  },
  showmax: {
    name: 'ShowMax',
    variations: [
      ['showmax-mobile', 'Showmax Mobile', 1450],
      ['showmax-pro', 'Showmax Pro', 3200],
    ],
  },
};
const DISCOS: [string, string][] = [
  ['ikeja', 'Ikeja Electric Payment - IKEDC'],
  ['eko', 'Eko Electric Payment - EKEDC'],
  ['kano', 'Kano Electric - KEDCO'],
  ['portharcourt', 'Port Harcourt Electric - PHED'],
  ['jos', 'Jos Electric - JED'],
  ['ibadan', 'Ibadan Electricity - IBEDC'],
  ['kaduna', 'Kaduna Electric - KAEDCO'],
  ['abuja', 'Abuja Electricity - AEDC'],
  ['enugu', 'Enugu Electric - EEDC'],
  ['benin', 'Benin Electric - BEDC'],
  ['aba', 'Aba Electric Payment - ABEDC'],
  ['yola', 'Yola Electric Disco Payment - YEDC'],
];
const DISCO_IDS = new Set(DISCOS.map(([id]) => `${id}-electric`));
const AIRTIME_IDS = new Set(AIRTIME.map((a) => a.serviceID));

const objectOf = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});

function serviceOf(serviceID: string): 'airtime' | 'cable' | 'electricity' | null {
  if (AIRTIME_IDS.has(serviceID)) return 'airtime';
  if (TV[serviceID]) return 'cable';
  if (DISCO_IDS.has(serviceID)) return 'electricity';
  return null;
}

/** The answer about an order (pay and requery); a kind's part adds its fields to the answer about its orders. */
function answer(o: SimOrder, serviceID: string, requestId: string, part?: VtpassPart) {
  const tx = {
    status: o.status,
    product_name: serviceID,
    unique_element: o.recipient,
    amount: nairaStr(o.amount),
    transactionId: `sim-c-${requestId.slice(-10)}`,
    ...(o.service === 'cable' || o.service === 'electricity' ? { customer_name: `Sandbox Customer ${o.recipient.slice(-4)}` } : {}),
  };
  if (o.status === 'failed') return { code: '016', response_description: 'TRANSACTION FAILED', requestId, content: { transactions: tx } };
  const body: Record<string, unknown> = {
    code: '000',
    response_description: o.status === 'delivered' ? 'TRANSACTION SUCCESSFUL' : 'TRANSACTION PROCESSING',
    requestId,
    amount: nairaStr(o.amount),
    transaction_date: new Date(o.created_at).toISOString(),
    content: { transactions: tx },
  };
  if (o.status === 'delivered' && o.result?.token)
    Object.assign(body, { purchased_code: `Token : ${o.result.token}`, token: o.result.token, units: o.result.units });
  return Object.assign(body, part?.answer?.(o) ?? {});
}

/**
 * Provider C's (VTpass-style) answer to a purchase the simulator placed: the door's refusals (HTTP 500, low float, a
 * duplicate request id), the held, slow and malformed answers of the magic endings, else `answer(order)`.
 */
export async function vtpassReply(
  placed: PlaceResult,
  reply: FastifyReply,
  config: Services['config'],
  answer: (order: SimOrder) => unknown,
): Promise<unknown> {
  if (placed.kind === 'http500') return reply.status(500).type('text/html').send('<html><body>502 Bad Gateway</body></html>');
  if (placed.kind === 'low_float') return { code: '018', response_description: 'LOW WALLET BALANCE' };
  if (placed.kind === 'duplicate') return { code: '014', response_description: 'REQUEST ID ALREADY EXIST' };
  if (placed.magic === 'timeout') await sleep(config.vtu.sandboxHoldMs);
  if (placed.magic === 'slow') await sleep(config.vtu.sandboxSlowMs);
  if (placed.magic === 'malformed') return reply.type('application/json').send('{"code":"000","content":{"transactions":{"status":"deliv');
  return answer(placed.order);
}

/** What provider C's routes share: the services, the kinds' vtpass parts and the door their answers go through. */
interface VtpassSim {
  services: Services;
  parts: VtpassPart[];
  partOf: (serviceID: string) => VtpassPart | undefined;
  env: SimulatorEnv;
  door: ProtocolDoor;
}

const bodyOf = (req: FastifyRequest) => (req.body && typeof req.body === 'object' ? (req.body as Record<string, any>) : {});

function listServices({ parts }: VtpassSim, req: FastifyRequest) {
  const identifier = String((req.query as any)?.identifier ?? '');
  if (identifier === 'airtime')
    return { response_description: '000', content: AIRTIME.map((a) => ({ ...a, minimium_amount: '50', maximum_amount: 50000 })) };
  if (identifier === 'tv-subscription')
    return { response_description: '000', content: Object.entries(TV).map(([serviceID, t]) => ({ serviceID, name: t.name })) };
  if (identifier === 'electricity-bill')
    return { response_description: '000', content: DISCOS.map(([id, name]) => ({ serviceID: `${id}-electric`, name })) };
  const kindList = parts.find((p) => p.services?.[identifier])?.services?.[identifier];
  if (kindList) return { response_description: '000', content: kindList(objectOf(req.query)) };
  return { response_description: '000', content: [] };
}

function serviceVariations({ parts }: VtpassSim, req: FastifyRequest, reply: FastifyReply) {
  const serviceID = String((req.query as any)?.serviceID ?? '');
  const kindVariations = parts.find((p) => p.variations?.[serviceID])?.variations?.[serviceID];
  if (kindVariations) return { response_description: '000', content: kindVariations(objectOf(req.query)) };
  const tv = TV[serviceID];
  if (!tv) return reply.send({ response_description: '012', content: { errors: 'PRODUCT DOES NOT EXIST' } });
  return {
    response_description: '000',
    content: {
      ServiceName: tv.name,
      serviceID,
      convinience_fee: '0 %',
      variations: tv.variations.map(([variation_code, name, amount]) => ({
        variation_code,
        name,
        variation_amount: amount.toFixed(2),
        fixedPrice: 'Yes',
      })),
    },
  };
}

function merchantVerify(req: FastifyRequest) {
  const b = bodyOf(req);
  const account = String(b.billersCode ?? '');
  const service = serviceOf(String(b.serviceID ?? ''));
  if (!account || (service !== 'cable' && service !== 'electricity'))
    return { code: '011', response_description: 'INVALID ARGUMENTS', content: { error: 'INVALID ARGUMENTS' } };
  if (verifyNotFound(account)) {
    return {
      code: '000',
      content: { error: service === 'cable' ? 'Invalid Smartcard Number' : 'Invalid Meter Number. Please check and try again' },
    };
  }
  const name = `Sandbox Customer ${account.slice(-4)}`;
  return service === 'cable'
    ? {
        code: '000',
        content: { Customer_Name: name, Status: 'ACTIVE', Current_Bouquet: 'DStv Compact', Customer_Number: account.slice(-6) },
      }
    : {
        code: '000',
        content: {
          Customer_Name: name,
          Address: '12 Sandbox Close, Lagos',
          Meter_Number: account,
          Meter_Type: String(b.type ?? 'prepaid').toUpperCase(),
        },
      };
}

/** A purchase: a kind's part pays its own services; airtime, cable and electricity are placed here. */
async function pay(sim: VtpassSim, req: FastifyRequest, reply: FastifyReply) {
  const { db, clock, config } = sim.services;
  const b = bodyOf(req);
  const requestId = String(b.request_id ?? '');
  const serviceID = String(b.serviceID ?? '');
  const part = sim.partOf(serviceID);
  if (part) return sendResult(await part.pay(b, sim.env), reply, sim.door);
  const service = serviceOf(serviceID);
  const account = String(b.billersCode ?? '');
  let amount = toKoboNum(b.amount);
  if (!/^\d{12}\S{1,60}$/.test(requestId) || !service || !account || !amount)
    return { code: '011', response_description: 'INVALID ARGUMENTS' };
  if (service === 'cable') {
    const v = TV[serviceID].variations.find(([code]) => code === b.variation_code);
    if (!v) return { code: '012', response_description: 'PRODUCT DOES NOT EXIST' };
    amount = BigInt(v[2] * 100);
  }
  if (service === 'electricity' && b.variation_code !== 'prepaid' && b.variation_code !== 'postpaid')
    return { code: '011', response_description: 'INVALID ARGUMENTS' };
  await arriveLate(account, config.vtu.sandboxHoldMs);
  const placed = await placeOrder(db, clock, {
    provider: 'c',
    requestId,
    service,
    recipient: account,
    product: serviceID,
    amount,
    meterType: b.variation_code,
  });
  return vtpassReply(placed, reply, config, (order) => answer(order, serviceID, requestId));
}

async function requery(sim: VtpassSim, req: FastifyRequest, reply: FastifyReply) {
  const { db, clock } = sim.services;
  const requestId = String(bodyOf(req).request_id ?? '');
  const o = requestId ? await queryOrder(db, clock, 'c', requestId) : null;
  if (!o) return { code: '015', response_description: 'INVALID REQUEST ID' };
  if (neverSettles(o)) return reply.status(503).type('text/html').send('<html><body>503 Service Unavailable</body></html>');
  return answer(o, o.product ?? '', requestId, sim.partOf(o.product ?? ''));
}

async function fund({ services: { db, clock } }: VtpassSim, req: FastifyRequest, reply: FastifyReply) {
  const b = bodyOf(req);
  const amount = toKoboNum(b.amount);
  if (!amount || typeof b.reference !== 'string' || !b.reference)
    return reply.status(400).send({ code: '011', response_description: 'INVALID ARGUMENTS' });
  return { code: 1, contents: { balance: Number(nairaStr(await fundFloat(db, clock, 'c', amount, b.reference))) } };
}

/**
 * Provider C's routes, with the kinds' parts (`kinds`: their vtpass parts and their own routes at C, see
 * modules/vtu/kinds/simulator.ts).
 */
export function registerVtpassSimulator(app: FastifyInstance, services: Services, base: string, kinds: KindSimulator[], env: SimulatorEnv) {
  const { db, config } = services;
  const creds = config.vtu.providers.c;
  const auth = async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.headers['api-key'] !== creds.key || req.headers['secret-key'] !== creds.secret) {
      return reply.status(401).send({ code: '087', response_description: 'INVALID CREDENTIALS' });
    }
  };
  const parts = kinds.flatMap((k) => (k.vtpass ? [k.vtpass] : []));
  const partOf = (serviceID: string) => parts.find((p) => p.serviceIds.includes(serviceID));
  const door: ProtocolDoor = (placed, reply, answerOf) =>
    vtpassReply(
      placed,
      reply,
      config,
      answerOf ?? ((order) => answer(order, order.product ?? '', order.request_id, partOf(order.product ?? ''))),
    );
  const sim: VtpassSim = { services, parts, partOf, env, door };

  app.register(
    async (r) => {
      r.addHook('onRequest', auth);
      r.get('/api/services', async (req) => listServices(sim, req));
      r.get('/api/service-variations', async (req, reply) => serviceVariations(sim, req, reply));
      r.post('/api/merchant-verify', async (req) => merchantVerify(req));
      r.post('/api/pay', (req, reply) => pay(sim, req, reply));
      r.post('/api/requery', (req, reply) => requery(sim, req, reply));
      r.get('/api/balance', async () => ({ code: 1, contents: { balance: Number(nairaStr(await floatBalance(db, 'c'))) } }));
      r.post('/api/fund', (req, reply) => fund(sim, req, reply));
      mountKindRoutes(r, kinds, 'c', env, door);
    },
    { prefix: base },
  );
}
