import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { one } from '../../../../db/client.js';
import {
  nairaStr,
  SimPlaced,
  SimResponse,
  toKoboNum,
  type KindSimulator,
  type SimOrder,
  type SimRoute,
  type SimulatorEnv,
} from '../simulator.js';

/**
 * The flights kind's simulator (kinds/simulator.ts): provider C's flights (issue 32), in its VTpass-style protocol and
 * credentials, its own routes under that provider's simulator:
 * GET /api/flights/airports, POST /api/flights/search (offers with a fare, fare rules and an expiry), POST
 * /api/flights/offer (the offer's current fare: the check before a booking is paid), POST /api/flights/book (an order
 * like /api/pay: request_id, the fare, the contact phone whose last four digits choose the outcome as for every
 * purchase, plus "6060": the fare moved), POST /api/flights/requery (the booking with its tickets: a PNR and one
 * e-ticket number per passenger) and POST /api/flights/cancel (by the fare's rules; a repeated cancellation answers
 * the same refund). Offers are deterministic: the same search answers the same offer ids and fares.
 */
export const FLIGHT_OFFER_TTL_MS = 30 * 60_000;

export const AIRPORTS: { code: string; city: string; name: string; country: string }[] = [
  { code: 'LOS', city: 'Lagos', name: 'Murtala Muhammed International Airport', country: 'NG' },
  { code: 'ABV', city: 'Abuja', name: 'Nnamdi Azikiwe International Airport', country: 'NG' },
  { code: 'PHC', city: 'Port Harcourt', name: 'Port Harcourt International Airport', country: 'NG' },
  { code: 'KAN', city: 'Kano', name: 'Mallam Aminu Kano International Airport', country: 'NG' },
  { code: 'ENU', city: 'Enugu', name: 'Akanu Ibiam International Airport', country: 'NG' },
  { code: 'QOW', city: 'Owerri', name: 'Sam Mbakwe Airport', country: 'NG' },
  { code: 'CBQ', city: 'Calabar', name: 'Margaret Ekpo International Airport', country: 'NG' },
  { code: 'BNI', city: 'Benin City', name: 'Benin Airport', country: 'NG' },
  { code: 'QUO', city: 'Uyo', name: 'Victor Attah International Airport', country: 'NG' },
  { code: 'KAD', city: 'Kaduna', name: 'Kaduna International Airport', country: 'NG' },
  { code: 'ACC', city: 'Accra', name: 'Kotoka International Airport', country: 'GH' },
  { code: 'LHR', city: 'London', name: 'Heathrow Airport', country: 'GB' },
  { code: 'DXB', city: 'Dubai', name: 'Dubai International Airport', country: 'AE' },
];
const AIRPORT = new Map(AIRPORTS.map((a) => [a.code, a]));

const AIRLINES: [string, string][] = [
  ['P4', 'Air Peace'],
  ['QI', 'Ibom Air'],
  ['W3', 'Arik Air'],
  ['UN', 'United Nigeria Airlines'],
  ['Q9', 'Green Africa'],
  ['VK', 'ValueJet'],
];
const CABINS = { economy: 1, premium_economy: 1.6, business: 2.8, first: 4.5 } as const;
type Cabin = keyof typeof CABINS;

interface Search {
  origin: string;
  destination: string;
  departure_date: string;
  return_date: string | null;
  adults: number;
  children: number;
  infants: number;
  cabin: Cabin;
}

const hashInt = (seed: string) => createHash('sha256').update(seed).digest().readUInt32BE(0);
const int = (v: unknown, min: number, max: number, dflt?: number) => {
  const n = v === undefined || v === null || v === '' ? dflt : Number(v);
  return n !== undefined && Number.isInteger(n) && n >= min && n <= max ? n : null;
};
const isDate = (s: unknown): s is string =>
  typeof s === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`));
/** Lagos is UTC+1 all year. */
const lagosDate = (d: Date) => new Date(d.getTime() + 3600_000).toISOString().slice(0, 10);
const atLagos = (date: string, minutes: number) => new Date(Date.parse(`${date}T00:00:00Z`) - 3600_000 + minutes * 60_000);

function parseSearch(b: Record<string, any>, now: Date): Search | string {
  const origin = String(b.origin ?? '').toUpperCase();
  const destination = String(b.destination ?? '').toUpperCase();
  if (!AIRPORT.has(origin) || !AIRPORT.has(destination)) return 'UNKNOWN AIRPORT';
  if (origin === destination) return 'ORIGIN AND DESTINATION ARE THE SAME';
  if (!isDate(b.departure_date)) return 'INVALID DEPARTURE DATE';
  const today = lagosDate(now);
  if (b.departure_date < today) return 'DEPARTURE DATE IS IN THE PAST';
  const returnDate = b.return_date === undefined || b.return_date === null || b.return_date === '' ? null : b.return_date;
  if (returnDate !== null && (!isDate(returnDate) || returnDate < b.departure_date)) return 'INVALID RETURN DATE';
  const adults = int(b.adults, 1, 9);
  const children = int(b.children, 0, 8, 0);
  const infants = int(b.infants, 0, 9, 0);
  if (adults === null || children === null || infants === null || adults + children > 9 || infants > adults)
    return 'INVALID PASSENGER COUNT';
  const cabin = String(b.cabin ?? 'economy') as Cabin;
  if (!(cabin in CABINS)) return 'INVALID CABIN';
  return { origin, destination, departure_date: b.departure_date, return_date: returnDate, adults, children, infants, cabin };
}

interface SimOffer {
  offer_id: string;
  search: Search;
  itinerary: Record<string, any>;
  passengers: number;
  amount: string;
  refundable: boolean;
  cancel_fee: string;
  departs_at: Date;
  repriced: boolean;
  expires_at: Date;
}

/** The three offers of a search: a flexible fare, a standard one (flat cancellation fee) and a non-refundable saver. */
function offersFor(s: Search) {
  const key = JSON.stringify(s);
  const international = AIRPORT.get(s.origin)!.country !== 'NG' || AIRPORT.get(s.destination)!.country !== 'NG';
  const base = hashInt(`base:${s.origin}${s.destination}`);
  const perAdult =
    (international ? 350_000 + (base % 200) * 1000 : 40_000 + (base % 40) * 1000) * CABINS[s.cabin] * (s.return_date ? 1.9 : 1);
  const passengers = s.adults + s.children + s.infants;
  const fareOf = (factor: number) => Math.round(perAdult * factor * (s.adults + 0.75 * s.children + 0.1 * s.infants));
  const leg = (i: number, from: string, to: string, date: string, airline: string) => {
    const h = hashInt(`leg:${key}:${i}:${from}`);
    const departMinutes = 6 * 60 + i * 4 * 60 + (h % 8) * 15;
    const duration = international ? 180 + (h % 16) * 15 : 55 + (h % 5) * 10;
    const departs = atLagos(date, departMinutes);
    return {
      flight_number: `${airline} ${100 + (h % 800)}`,
      origin: from,
      destination: to,
      departs_at: departs.toISOString(),
      arrives_at: new Date(departs.getTime() + duration * 60_000).toISOString(),
    };
  };
  const kinds = [
    { factor: 1.15, refundable: true, fee: (fare: number) => Math.round(fare * 0.1), fareName: 'Flex' },
    { factor: 1, refundable: true, fee: () => 15_000 * passengers, fareName: 'Standard' },
    { factor: 0.85, refundable: false, fee: (fare: number) => fare, fareName: 'Saver' },
  ];
  return kinds.map((k, i) => {
    const [code, name] = AIRLINES[hashInt(`airline:${key}:${i}`) % AIRLINES.length];
    const fare = fareOf(k.factor);
    const segments = [leg(i, s.origin, s.destination, s.departure_date, code)];
    if (s.return_date) segments.push(leg(i, s.destination, s.origin, s.return_date, code));
    return {
      offer_id: `C${createHash('sha256').update(`offer:${key}:${i}`).digest('hex').slice(0, 15).toUpperCase()}`,
      itinerary: { airline: { code, name }, cabin: s.cabin, fare_name: k.fareName, segments },
      passengers,
      amount: BigInt(fare) * 100n,
      refundable: k.refundable,
      cancel_fee: BigInt(k.fee(fare)) * 100n,
      departs_at: new Date(segments[0].departs_at),
    };
  });
}

const offerAnswer = (o: SimOffer) => ({
  offer_id: o.offer_id,
  ...o.itinerary,
  passengers: { adults: o.search.adults, children: o.search.children, infants: o.search.infants },
  amount: nairaStr(o.amount),
  currency: 'NGN',
  fare_rules: { refundable: o.refundable, cancellation_fee: nairaStr(o.cancel_fee) },
  expires_at: new Date(o.expires_at).toISOString(),
});

const OFFER_COLS = sql.raw(
  'offer_id, search, itinerary, passengers, amount::text AS amount, refundable, cancel_fee::text AS cancel_fee, departs_at, repriced, expires_at',
);

/** A booking's tickets, from its request id: a record locator (no 0/1/I/O, as airlines print them) and one
 * 13-digit e-ticket number per passenger. */
export function ticketsOf(requestId: string, passengers: number) {
  const letters = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const pnr = [...createHash('sha256').update(`pnr:${requestId}`).digest().subarray(0, 6)].map((b) => letters[b % 32]).join('');
  const tickets = Array.from({ length: passengers }, (_, i) =>
    (createHash('sha256').update(`tkt:${requestId}:${i}`).digest().readBigUInt64BE(0) % 10n ** 13n).toString().padStart(13, '0'),
  );
  return { pnr, tickets };
}

/** An order's answer, /api/pay's shape plus the booking once ticketed. */
function answer(o: SimOrder, passengers: number) {
  const tx = {
    status: o.status,
    product_name: 'flight',
    unique_element: o.recipient,
    amount: nairaStr(o.amount),
    transactionId: `sim-c-${o.request_id.slice(-10)}`,
  };
  if (o.status === 'failed')
    return { code: '016', response_description: o.message ?? 'TRANSACTION FAILED', requestId: o.request_id, content: { transactions: tx } };
  return {
    code: '000',
    response_description: o.status === 'delivered' ? 'TRANSACTION SUCCESSFUL' : 'TRANSACTION PROCESSING',
    requestId: o.request_id,
    amount: nairaStr(o.amount),
    transaction_date: new Date(o.created_at).toISOString(),
    content: { transactions: tx },
    ...(o.status === 'delivered' ? { booking: ticketsOf(o.request_id, passengers) } : {}),
  };
}

const findOffer = (env: SimulatorEnv, id: string) =>
  one<SimOffer>(env.db, sql`SELECT ${OFFER_COLS} FROM sandbox_flight_offers WHERE offer_id = ${id}`);
const expired = (env: SimulatorEnv, o: SimOffer) =>
  new Date(o.expires_at).getTime() <= env.clock.now().getTime() || new Date(o.departs_at) <= env.clock.now();
const unavailable = () => new SimResponse(503, '<html><body>503 Service Unavailable</body></html>', 'text/html');

const routes: SimRoute[] = [
  { method: 'GET', path: '/api/flights/airports', handler: async () => ({ code: '000', content: AIRPORTS }) },

  {
    method: 'POST',
    path: '/api/flights/search',
    handler: async (req, env) => {
      const { db, clock } = env;
      const now = clock.now();
      const s = parseSearch(req.body, now);
      if (typeof s === 'string') return { code: '011', response_description: s };
      const expiresAt = new Date(now.getTime() + FLIGHT_OFFER_TTL_MS);
      const list: SimOffer[] = [];
      for (const o of offersFor(s).filter((x) => x.departs_at > now)) {
        // The same search answers the same offers; a search again refreshes the expiry and keeps a repriced fare.
        const row = await one<SimOffer>(
          db,
          sql`INSERT INTO sandbox_flight_offers (offer_id, search, itinerary, passengers, amount, refundable, cancel_fee, departs_at, expires_at, created_at)
              VALUES (${o.offer_id}, ${JSON.stringify(s)}::jsonb, ${JSON.stringify(o.itinerary)}::jsonb, ${o.passengers}, ${o.amount}, ${o.refundable},
                ${o.cancel_fee}, ${o.departs_at}, ${expiresAt}, ${now})
              ON CONFLICT (offer_id) DO UPDATE SET expires_at = EXCLUDED.expires_at
              RETURNING ${OFFER_COLS}`,
        );
        list.push(row!);
      }
      return { code: '000', response_description: 'SEARCH SUCCESSFUL', content: { offers: list.map(offerAnswer) } };
    },
  },

  {
    method: 'POST',
    path: '/api/flights/offer',
    handler: async (req, env) => {
      const b = req.body;
      const o = await findOffer(env, String(b.offer_id ?? ''));
      if (!o) return { code: '012', response_description: 'OFFER DOES NOT EXIST' };
      if (expired(env, o)) return { code: '019', response_description: 'OFFER EXPIRED' };
      if (String(b.phone ?? '').endsWith('6060') && !o.repriced) {
        // "6060": the airline moved the fare up 5% since the search (once: the next check sees the new fare).
        const moved = await one<SimOffer>(
          env.db,
          sql`UPDATE sandbox_flight_offers SET amount = amount + (amount / 2000) * 100, repriced = true
              WHERE offer_id = ${o.offer_id} AND NOT repriced RETURNING ${OFFER_COLS}`,
        );
        return { code: '000', response_description: 'FARE CHANGED', content: { offer: offerAnswer(moved ?? o) } };
      }
      return { code: '000', response_description: 'OFFER AVAILABLE', content: { offer: offerAnswer(o) } };
    },
  },

  {
    method: 'POST',
    path: '/api/flights/book',
    handler: async (req, env) => {
      const b = req.body;
      const requestId = String(b.request_id ?? '');
      const phone = String(b.phone ?? '');
      const amount = toKoboNum(b.amount);
      const passengers = Array.isArray(b.passengers) ? b.passengers : [];
      if (!/^\d{12}\S{1,60}$/.test(requestId) || !/^\d{11}$/.test(phone) || !amount || !passengers.length)
        return { code: '011', response_description: 'INVALID ARGUMENTS' };
      const valid = passengers.every(
        (p: any) =>
          p &&
          typeof p.first_name === 'string' &&
          p.first_name &&
          typeof p.last_name === 'string' &&
          p.last_name &&
          isDate(p.date_of_birth),
      );
      if (!valid) return { code: '011', response_description: 'INVALID PASSENGER DETAILS' };
      const o = await findOffer(env, String(b.offer_id ?? ''));
      if (!o) return { code: '012', response_description: 'OFFER DOES NOT EXIST' };
      if (expired(env, o)) return { code: '019', response_description: 'OFFER EXPIRED' };
      if (passengers.length !== o.passengers) return { code: '011', response_description: 'PASSENGER COUNT DOES NOT MATCH THE OFFER' };
      if (amount !== BigInt(o.amount)) return { code: '020', response_description: `FARE CHANGED: NOW ${nairaStr(o.amount)}` };
      await env.arriveLate(phone);
      const placed = await env.placeOrder({
        provider: 'c',
        requestId,
        service: 'flight',
        recipient: phone,
        product: o.offer_id,
        amount,
        quantity: passengers.length,
      });
      return new SimPlaced(placed, (order) => answer(order, o.passengers));
    },
  },

  {
    method: 'POST',
    path: '/api/flights/requery',
    handler: async (req, env) => {
      const requestId = String(req.body.request_id ?? '');
      const o = requestId ? await env.queryOrder('c', requestId) : null;
      if (!o || o.service !== 'flight') return { code: '015', response_description: 'INVALID REQUEST ID' };
      if (env.neverSettles(o)) return unavailable();
      return answer(o, (await findOffer(env, o.product ?? ''))?.passengers ?? 1);
    },
  },

  {
    method: 'POST',
    path: '/api/flights/cancel',
    handler: async (req, env) => {
      const requestId = String(req.body.request_id ?? '');
      const order = requestId ? await env.queryOrder('c', requestId) : null;
      if (!order || order.service !== 'flight') return { code: '015', response_description: 'INVALID REQUEST ID' };
      if (order.status !== 'delivered') return { code: '011', response_description: 'BOOKING IS NOT TICKETED' };
      const offer = (await findOffer(env, order.product ?? ''))!;
      const now = env.clock.now();
      const amount = BigInt(order.amount);
      const fee = offer.refundable ? (BigInt(offer.cancel_fee) < amount ? BigInt(offer.cancel_fee) : amount) : amount;
      // One statement: the first cancellation records the refund and gives it back to the float; a repeat answers it.
      const done = await one<{ refund: string; fee: string; created_at: Date }>(
        env.db,
        sql`WITH ins AS (
              INSERT INTO sandbox_flight_cancellations (request_id, refund, fee, created_at)
              SELECT ${requestId}, ${amount - fee}::bigint, ${fee}::bigint, ${now}::timestamptz WHERE ${new Date(offer.departs_at) > now}::boolean
              ON CONFLICT (request_id) DO NOTHING RETURNING refund, fee, created_at),
            fl AS (UPDATE sandbox_vtu_floats f SET balance = f.balance + ins.refund FROM ins WHERE f.provider = 'c' RETURNING 1)
            SELECT refund::text AS refund, fee::text AS fee, created_at FROM ins
            UNION ALL SELECT refund::text, fee::text, created_at FROM sandbox_flight_cancellations WHERE request_id = ${requestId}
            LIMIT 1`,
      );
      if (!done) return { code: '021', response_description: 'CANCELLATION IS NOT ALLOWED AFTER DEPARTURE' };
      return {
        code: '000',
        response_description: 'BOOKING CANCELLED',
        content: {
          cancellation: {
            request_id: requestId,
            status: 'cancelled',
            refund_amount: nairaStr(done.refund),
            fee: nairaStr(done.fee),
            cancelled_at: new Date(done.created_at).toISOString(),
          },
        },
      };
    },
  },
];

/** Provider C's flight routes, behind the same credentials as the rest of its simulator. */
export const flightsSimulator: KindSimulator = { routes: { c: routes } };
