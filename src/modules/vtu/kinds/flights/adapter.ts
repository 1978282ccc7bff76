import { vtpassOutcome } from '../../../../providers/vtu/vtpass.js';
import { koboOf } from '../../../../providers/vtu/transport.js';
import { ProviderError, type Outcome, type Phase, type PurchaseRequest } from '../../../../providers/vtu/types.js';
import type { KindAdapter } from '../kind.js';

/**
 * Provider C's flights protocol (its VTpass style, its credentials): GET /api/flights/airports; POST
 * /api/flights/search {origin, destination, departure_date, return_date, adults, children, infants, cabin} answers
 * offers (offer_id, airline, segments, amount, fare_rules {refundable, cancellation_fee}, expires_at); POST
 * /api/flights/offer {offer_id, phone} the offer's current fare (012 gone, 019 expired); POST /api/flights/book
 * {request_id, offer_id, amount, phone, email, passengers} an order read like /api/pay (plus `booking` {pnr,
 * tickets} once ticketed; 019 expired and 020 fare changed are refusals: nothing was booked); POST
 * /api/flights/requery {request_id}; POST /api/flights/cancel {request_id} answers the refund the fare's rules give.
 * Amounts cross this boundary as kobo.
 */
export interface ProviderCall {
  call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: any }>;
  read(method: 'GET' | 'POST', path: string, body?: unknown): Promise<any>;
  outcome(
    send: () => Promise<{ status: number; body: any }>,
    parse: (res: { status: number; body: any }, phase: Phase) => Outcome,
    phase?: Phase,
  ): Promise<Outcome>;
}

export const CABINS = ['economy', 'premium_economy', 'business', 'first'] as const;
export type Cabin = (typeof CABINS)[number];

export interface FlightSearch {
  origin: string;
  destination: string;
  departureDate: string;
  returnDate?: string | null;
  adults: number;
  children: number;
  infants: number;
  cabin: Cabin;
}

export interface Segment {
  flightNumber: string;
  origin: string;
  destination: string;
  departsAt: string;
  arrivesAt: string;
}

export interface Itinerary {
  airline: { code: string; name: string };
  cabin: string;
  fareName: string;
  segments: Segment[];
}

export interface ProviderOffer {
  providerOfferId: string;
  itinerary: Itinerary;
  passengers: { adults: number; children: number; infants: number };
  /** The fare at the provider, kobo (our wholesale). */
  amount: bigint;
  refundable: boolean;
  /** What a cancellation keeps of the fare, kobo (the whole fare when not refundable). */
  cancelFee: bigint;
  departsAt: Date;
  expiresAt: Date;
}

export interface Airport {
  code: string;
  city: string;
  name: string;
  country: string;
}

export interface Passenger {
  title: string;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  type: 'adult' | 'child' | 'infant';
}

/** What our booking sends beyond the core's request (kept in vtu_transactions.inputs). */
export interface BookingInputs {
  providerOfferId: string;
  passengers: Passenger[];
  email: string;
}

export type OfferCheck = { status: 'available'; offer: ProviderOffer } | { status: 'gone'; message: string };

export type CancelOutcome =
  { status: 'cancelled'; refund: bigint; fee: bigint } | { status: 'refused'; message: string } | { status: 'unknown'; message: string };

export interface FlightAdapter extends KindAdapter {
  airports(): Promise<Airport[]>;
  search(s: FlightSearch): Promise<ProviderOffer[]>;
  /** The offer's current fare, checked before a booking is paid; the contact phone goes with it. */
  check(providerOfferId: string, phone: string): Promise<OfferCheck>;
  purchase(req: PurchaseRequest): Promise<Outcome>;
  requery(requestId: string): Promise<Outcome>;
  cancel(requestId: string): Promise<CancelOutcome>;
}

const naira = (kobo: bigint) => Number(kobo) / 100;

function malformed(what: string): never {
  throw new ProviderError('c', `provider c: ${what}`, 'malformed');
}

export function offerOf(o: any): ProviderOffer {
  const amount = koboOf(o?.amount);
  const fee = koboOf(o?.fare_rules?.cancellation_fee);
  const segments = Array.isArray(o?.segments) ? o.segments : [];
  const expiresAt = new Date(String(o?.expires_at ?? ''));
  if (!o?.offer_id || amount === null || amount <= 0n || fee === null || !segments.length || Number.isNaN(expiresAt.getTime()))
    malformed('an offer without its id, fare, rules, segments or expiry');
  const segs: Segment[] = segments.map((s: any) => ({
    flightNumber: String(s.flight_number),
    origin: String(s.origin),
    destination: String(s.destination),
    departsAt: new Date(String(s.departs_at)).toISOString(),
    arrivesAt: new Date(String(s.arrives_at)).toISOString(),
  }));
  return {
    providerOfferId: String(o.offer_id),
    itinerary: {
      airline: { code: String(o.airline?.code ?? ''), name: String(o.airline?.name ?? '') },
      cabin: String(o.cabin ?? ''),
      fareName: String(o.fare_name ?? ''),
      segments: segs,
    },
    passengers: {
      adults: Number(o.passengers?.adults ?? 1),
      children: Number(o.passengers?.children ?? 0),
      infants: Number(o.passengers?.infants ?? 0),
    },
    amount,
    refundable: Boolean(o.fare_rules?.refundable),
    cancelFee: fee,
    departsAt: new Date(segs[0].departsAt),
    expiresAt,
  };
}

/**
 * A booking's answer: /api/pay's codes (vtpassOutcome), the tickets once ticketed, and the flight refusals (019 the
 * offer expired, 020 the fare changed: nothing was booked, a definite failure of a purchase; said of a requery they
 * tell nothing).
 */
export function bookingOutcome(res: { status: number; body: any }, phase: Phase = 'purchase'): Outcome {
  const code = String(res.body?.code ?? '');
  if (res.status < 400 && (code === '019' || code === '020')) {
    const message =
      code === '019' ? 'The offer expired before it could be booked' : 'The fare changed at the airline before it could be booked';
    return phase === 'purchase' ? { status: 'failed', message } : { status: 'unknown', message };
  }
  const out = vtpassOutcome(res, phase);
  if (out.status !== 'delivered') return out;
  const b = res.body?.booking;
  // Delivered without a record locator is not a ticket we can hand over: ask again.
  if (!b || typeof b.pnr !== 'string' || !b.pnr || !Array.isArray(b.tickets))
    return { status: 'unknown', message: 'ticketed without a PNR' };
  return { ...out, details: { ...out.details, pnr: b.pnr, tickets: b.tickets.map(String) } as Outcome['details'] };
}

export function createFlightAdapterC(client: ProviderCall): FlightAdapter {
  return {
    async airports() {
      const b = await client.read('GET', '/api/flights/airports');
      if (!Array.isArray(b.content)) malformed('airports missing');
      return (b.content as any[]).map((a) => ({
        code: String(a.code),
        city: String(a.city),
        name: String(a.name),
        country: String(a.country),
      }));
    },
    async search(s) {
      const b = await client.read('POST', '/api/flights/search', {
        origin: s.origin,
        destination: s.destination,
        departure_date: s.departureDate,
        return_date: s.returnDate ?? null,
        adults: s.adults,
        children: s.children,
        infants: s.infants,
        cabin: s.cabin,
      });
      if (String(b.code) !== '000')
        throw new ProviderError('c', `provider c refused the search: ${b.response_description ?? b.code}`, 'refused');
      if (!Array.isArray(b.content?.offers)) malformed('offers missing');
      return (b.content.offers as any[]).map(offerOf);
    },
    async check(providerOfferId, phone) {
      const b = await client.read('POST', '/api/flights/offer', { offer_id: providerOfferId, phone });
      const code = String(b.code);
      if (code === '012' || code === '019') return { status: 'gone', message: String(b.response_description ?? 'offer gone') };
      if (code !== '000') malformed(`unexpected offer answer ${code}`);
      return { status: 'available', offer: offerOf(b.content?.offer) };
    },
    async purchase(req) {
      const i = req.inputs as BookingInputs | undefined;
      if (!i?.providerOfferId || !Array.isArray(i.passengers))
        return { status: 'failed', message: 'The booking has no offer or passengers' };
      const body = {
        request_id: req.requestId,
        offer_id: i.providerOfferId,
        amount: naira(req.wholesale),
        phone: req.recipient,
        email: i.email,
        passengers: i.passengers,
      };
      return client.outcome(() => client.call('POST', '/api/flights/book', body), bookingOutcome);
    },
    async requery(requestId) {
      return client.outcome(() => client.call('POST', '/api/flights/requery', { request_id: requestId }), bookingOutcome, 'requery');
    },
    async cancel(requestId) {
      let res;
      try {
        res = await client.call('POST', '/api/flights/cancel', { request_id: requestId });
      } catch (err) {
        return { status: 'unknown', message: (err as Error).message };
      }
      const b = res.body;
      if (res.status >= 500 || !b || typeof b !== 'object') return { status: 'unknown', message: `provider answered HTTP ${res.status}` };
      const code = String(b.code ?? '');
      if (code === '000') {
        const refund = koboOf(b.content?.cancellation?.refund_amount);
        const fee = koboOf(b.content?.cancellation?.fee);
        if (refund === null || refund < 0n || fee === null) return { status: 'unknown', message: 'cancellation without its refund' };
        return { status: 'cancelled', refund, fee };
      }
      if (res.status === 401 || res.status === 403) return { status: 'unknown', message: 'cancellation refused our credentials' };
      return { status: 'refused', message: String(b.response_description ?? `code ${code}`) };
    },
  };
}
