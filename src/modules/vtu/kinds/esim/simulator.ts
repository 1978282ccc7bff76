import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../../db/client.js';
import { DAY, MINUTE, type Clock } from '../../../../kernel/clock.js';
import { SimPlaced, type KindSimulator, type SimOrder, type SimulatorEnv } from '../simulator.js';

/**
 * The eSIM kind's simulator (kinds/simulator.ts): provider C's travel eSIMs (VTpass-style protocol, docs/design.md §11): plans are the variations of serviceID
 * `esim` (GET /api/service-variations?serviceID=esim&region=), destinations are GET /api/services?identifier=esim.
 * A purchase is POST /api/pay {serviceID: esim, billersCode: the buyer's phone, variation_code: plan}; a top-up is
 * {serviceID: esim-topup, billersCode: ICCID, phone, variation_code: plan of the eSIM's destination}. The order is
 * recorded against the phone, whose last four digits choose the outcome like every other sandbox purchase. A
 * delivered purchase answers `esim: {iccid, activation_code (LPA string), smdp_address, matching_id}`;
 * GET /api/esim/usage?iccid= answers its status and data used.
 */
export const ESIM_REGIONS: { code: string; name: string; kind: 'country' | 'region' }[] = [
  { code: 'gb', name: 'United Kingdom', kind: 'country' },
  { code: 'us', name: 'United States', kind: 'country' },
  { code: 'ae', name: 'United Arab Emirates', kind: 'country' },
  { code: 'sa', name: 'Saudi Arabia', kind: 'country' },
  { code: 'gh', name: 'Ghana', kind: 'country' },
  { code: 'za', name: 'South Africa', kind: 'country' },
  { code: 'cn', name: 'China', kind: 'country' },
  { code: 'europe', name: 'Europe (33 countries)', kind: 'region' },
  { code: 'africa', name: 'Africa (25 countries)', kind: 'region' },
  { code: 'global', name: 'Global (80 countries)', kind: 'region' },
];

/** Naira price of [1 GB 7 days, 3 GB 15 days, 10 GB 30 days] per destination. */
const PRICES: Record<string, [number, number, number]> = {
  gb: [6500, 15500, 39000],
  us: [7000, 16500, 42000],
  ae: [8000, 19000, 48000],
  sa: [8500, 20000, 51000],
  gh: [5500, 13000, 33000],
  za: [6000, 14500, 36000],
  cn: [9000, 21500, 55000],
  europe: [7500, 18000, 45000],
  africa: [11000, 27000, 68000],
  global: [14000, 34000, 86000],
};
const SIZES: [number, number][] = [
  [1024, 7],
  [3072, 15],
  [10240, 30],
];

export interface EsimPlan {
  variation_code: string;
  name: string;
  variation_amount: string;
  region: string;
  data_mb: number;
  validity_days: number;
}

export const ESIM_PLANS: EsimPlan[] = ESIM_REGIONS.flatMap((r) =>
  SIZES.map(([mb, days], i) => ({
    variation_code: `esim-${r.code}-${mb / 1024}gb-${days}d`,
    name: `${r.name} ${mb / 1024} GB, ${days} days`,
    variation_amount: PRICES[r.code][i].toFixed(2),
    region: r.code,
    data_mb: mb,
    validity_days: days,
  })),
);

export const esimPlan = (code: unknown) => ESIM_PLANS.find((p) => p.variation_code === code);

const hash = (seed: string) => createHash('sha256').update(seed).digest();

/** ICCIDs are 19 digits plus a Luhn check digit (ITU-T E.118); 89 = telecom, 234 = Nigeria. */
export function iccidFor(requestId: string): string {
  const h = hash(`iccid:${requestId}`);
  let body = '89234';
  for (let i = 0; body.length < 19; i++) body += (h[i] % 10).toString();
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return body + ((10 - (sum % 10)) % 10).toString();
}

export const SMDP_ADDRESS = 'smdp.sandbox.esim.example';

/** What a delivered eSIM hands over: the ICCID and the activation code (GSMA SGP.22 "LPA:1$<SM-DP+>$<matching id>"). */
export function esimIssue(requestId: string, plan: EsimPlan) {
  const matchingId = hash(`match:${requestId}`).toString('hex').slice(0, 20).toUpperCase();
  return {
    iccid: iccidFor(requestId),
    activation_code: `LPA:1$${SMDP_ADDRESS}$${matchingId}`,
    smdp_address: SMDP_ADDRESS,
    matching_id: matchingId,
    region: plan.region,
    data_mb: plan.data_mb,
    validity_days: plan.validity_days,
  };
}

/** The delivered eSIM with this ICCID, or null. */
export async function findEsim(db: Db, iccid: string): Promise<SimOrder | null> {
  const found = await one<SimOrder>(
    db,
    sql`SELECT provider, request_id, service, recipient, product, amount::text AS amount, status, result, message, created_at
        FROM sandbox_vtu_orders WHERE provider = 'c' AND service = 'esim' AND status = 'delivered' AND result->>'iccid' = ${iccid}`,
  );
  return found ?? null;
}

/** The fields an answer about an eSIM order adds to the VTpass answer. */
export function esimAnswer(o: SimOrder) {
  if (o.status !== 'delivered' || !o.result?.iccid) return {};
  if (o.service === 'esim-topup')
    return { esim: { iccid: o.result.iccid, data_mb: o.result.data_mb, validity_days: o.result.validity_days } };
  const { iccid, activation_code, smdp_address, matching_id, data_mb, validity_days, region } = o.result;
  return { esim: { iccid, activation_code, smdp_address, matching_id, data_mb, validity_days, region } };
}

/**
 * Usage of an eSIM: its data is the plan's plus every delivered top-up's; it is "not_installed" for its first
 * ten minutes, then the sandbox traveller uses 20 MB a minute until the data or the validity (counted from the
 * purchase, extended by each top-up from its own date) runs out.
 */
export async function esimUsage(db: Db, clock: Clock, iccid: string) {
  const esim = await findEsim(db, iccid);
  if (!esim) return null;
  const topups = await rows<{ result: Record<string, any>; created_at: Date }>(
    db,
    sql`SELECT result, created_at FROM sandbox_vtu_orders
        WHERE provider = 'c' AND service = 'esim-topup' AND status = 'delivered' AND result->>'iccid' = ${iccid}`,
  );
  const start = new Date(esim.created_at).getTime();
  const now = clock.now().getTime();
  const total = Number(esim.result!.data_mb) + topups.reduce((s, t) => s + Number(t.result.data_mb), 0);
  const expires = Math.max(
    start + Number(esim.result!.validity_days) * DAY,
    ...topups.map((t) => new Date(t.created_at).getTime() + Number(t.result.validity_days) * DAY),
  );
  const installedAt = start + 10 * MINUTE;
  const used = now < installedAt ? 0 : Math.min(total, Math.floor((Math.min(now, expires) - installedAt) / MINUTE) * 20);
  const status = now >= expires ? 'expired' : now < installedAt ? 'not_installed' : used >= total ? 'depleted' : 'active';
  return { iccid, status, data_total_mb: total, data_used_mb: used, expires_at: new Date(expires).toISOString() };
}

/** An eSIM purchase (billersCode = phone) or top-up (billersCode = ICCID, phone): the plan sets the price. */
async function payEsim(b: Record<string, any>, env: SimulatorEnv) {
  const requestId = String(b.request_id ?? '');
  const serviceID = String(b.serviceID);
  const plan = esimPlan(b.variation_code);
  const topup = serviceID === 'esim-topup';
  const phone = String((topup ? b.phone : b.billersCode) ?? '');
  if (!/^\d{12}\S{1,60}$/.test(requestId) || !/^\+?\d{10,15}$/.test(phone))
    return { code: '011', response_description: 'INVALID ARGUMENTS' };
  if (!plan) return { code: '012', response_description: 'PRODUCT DOES NOT EXIST' };
  let result: Record<string, unknown> = esimIssue(requestId, plan);
  if (topup) {
    const esim = await findEsim(env.db, String(b.billersCode ?? ''));
    if (!esim || esim.result?.region !== plan.region) return { code: '012', response_description: 'ESIM NOT FOUND FOR THIS PLAN' };
    result = { iccid: esim.result.iccid, data_mb: plan.data_mb, validity_days: plan.validity_days };
  }
  await env.arriveLate(phone);
  const placed = await env.placeOrder({
    provider: 'c',
    requestId,
    service: serviceID,
    recipient: phone,
    product: serviceID,
    amount: BigInt(Math.round(Number(plan.variation_amount) * 100)),
    result,
  });
  return new SimPlaced(placed);
}

/**
 * Provider C's part: the destinations (GET /api/services?identifier=esim), the plans (GET
 * /api/service-variations?serviceID=esim&region=), purchases and top-ups through /api/pay (the eSIM in the answer),
 * and GET /api/esim/usage?iccid=.
 */
export const esimSimulator: KindSimulator = {
  vtpass: {
    serviceIds: ['esim', 'esim-topup'],
    services: { esim: () => ESIM_REGIONS.map((e) => ({ serviceID: e.code, ...e })) },
    variations: {
      esim: (query) => {
        const region = String(query.region ?? '');
        const variations = ESIM_PLANS.filter((p) => !region || p.region === region).map((p) => ({ ...p, fixedPrice: 'Yes' }));
        return { ServiceName: 'Travel eSIM', serviceID: 'esim', convinience_fee: '0 %', variations };
      },
    },
    pay: payEsim,
    answer: esimAnswer,
  },
  routes: {
    c: [
      {
        method: 'GET',
        path: '/api/esim/usage',
        handler: async (req, env) => {
          const usage = await esimUsage(env.db, env.clock, String(req.query.iccid ?? ''));
          if (!usage) return { code: '012', response_description: 'ESIM NOT FOUND' };
          return { code: '000', response_description: 'SUCCESSFUL', content: usage };
        },
      },
    ],
  },
};
