import { z } from 'zod';
import { AppError } from '../../../../kernel/errors.js';
import { naira, toNaira } from '../../../../kernel/money.js';
import type { VtuRow } from '../../repository.js';
import { kindOperation, type ServiceKind } from '../kind.js';
import { createFlightAdapterC, type FlightAdapter } from './adapter.js';
import { bookFlightInput, cancelFlightInput, offerIdInput, searchFlightsInput, type BookFlightInput } from './inputs.js';
import { names } from './names.js';
import { airports, cancel, heldOffer, KIND, prepare, search, type StoredBooking } from './service.js';

const offerOutput = z.object({
  offer_id: z.string(),
  airline: z.object({ code: z.string(), name: z.string() }),
  cabin: z.string(),
  fare_name: z.string(),
  segments: z.array(
    z.object({ flight_number: z.string(), origin: z.string(), destination: z.string(), departs_at: z.string(), arrives_at: z.string() }),
  ),
  passengers: z.object({ adults: z.number(), children: z.number(), infants: z.number() }),
  price: naira.meta({ description: 'what the wallet pays for the whole booking (every traveller), naira' }),
  refundable: z.boolean(),
  cancellation_fee: naira.meta({ description: "what a cancellation keeps by the fare's rules (the whole fare when not refundable)" }),
  expires_at: z.string().meta({ description: 'the price is held until then; book before it or search again' }),
});

const cancellationOutput = z.object({ refund: naira, fee: naira, cancelledAt: z.string() });

interface Details {
  pnr?: string;
  tickets?: string[];
  cancellation?: { refund: string; fee: string; cancelledAt: string };
}

const bookingOf = (r: VtuRow) => r.inputs as unknown as StoredBooking | null;

/** The booking as the buyer sees it: the flight, the travellers, the PNR and e-tickets once ticketed, a cancellation. */
function flightView(r: VtuRow) {
  const b = bookingOf(r);
  if (!b) return {};
  const d = (r.details ?? {}) as Details;
  const names = b.passengers.map((p) => `${p.first_name} ${p.last_name}`);
  return {
    flight: {
      offerId: b.offerId,
      route: b.route,
      airline: b.airline,
      fareName: b.fareName,
      departsAt: b.departsAt,
      refundable: b.refundable,
      segments: b.segments,
      passengers: b.passengers.map((p, i) => ({ name: names[i], type: p.type })),
      ...(d.pnr ? { pnr: d.pnr } : {}),
      ...(d.pnr && Array.isArray(d.tickets) ? { tickets: d.tickets.map((number, i) => ({ passenger: names[i] ?? '', number })) } : {}),
      ...(d.cancellation
        ? {
            cancellation: {
              refund: toNaira(BigInt(d.cancellation.refund)),
              fee: toNaira(BigInt(d.cancellation.fee)),
              cancelledAt: d.cancellation.cancelledAt,
            },
          }
        : {}),
    },
  };
}

const flightViewField = z
  .object({
    offerId: z.string(),
    route: z.string(),
    airline: z.string(),
    fareName: z.string(),
    departsAt: z.string(),
    refundable: z.boolean(),
    segments: z.array(
      z.object({ flightNumber: z.string(), origin: z.string(), destination: z.string(), departsAt: z.string(), arrivesAt: z.string() }),
    ),
    passengers: z.array(z.object({ name: z.string(), type: z.string() })),
    pnr: z.string().optional().meta({ description: 'the booking reference (record locator), once ticketed' }),
    tickets: z.array(z.object({ passenger: z.string(), number: z.string() })).optional(),
    cancellation: cancellationOutput.optional(),
  })
  .optional()
  .meta({ description: 'flight: the booking, its PNR and e-tickets once ticketed, and its cancellation' });

/**
 * Flights (provider C, issue 32 item 4): searchFlights answers offers with a price and an expiry, held for the
 * caller; bookFlight books one (travellers and a contact; the fare is checked at the airline before any debit:
 * PRICE_CHANGED when it moved) and issues the tickets (PNR, e-ticket numbers) or refunds; cancelFlightBooking cancels a
 * ticketed booking by its fare's rules, the refund credited once. The offer's price is the price (no fee line).
 */
export const flightsKind: ServiceKind<BookFlightInput, FlightAdapter> = {
  name: KIND,
  label: 'flight booking',
  names,
  feeOnTop: false,
  defaultRouting: ['c'],
  purchase: {
    name: 'bookFlight',
    purpose:
      "book a held flight offer (PIN required): travellers, a contact and the offer's price; the transaction carries the PNR and e-tickets once ticketed",
    input: bookFlightInput,
    errors: ['PRICE_CHANGED', 'NOT_FOUND', 'CONFLICT'],
  },
  operations: [
    kindOperation({
      name: 'listFlightAirports',
      method: 'GET',
      catalogue: true,
      purpose: 'the airports flights are searched between',
      input: z.object({}),
      output: z.object({ items: z.array(z.object({ code: z.string(), city: z.string(), name: z.string(), country: z.string() })) }),
      errors: ['UPSTREAM_ERROR'],
      handler: async (_i, { kind }) => ({ items: await airports(kind) }),
    }),
    kindOperation({
      name: 'searchFlights',
      method: 'POST',
      purpose: 'flight offers for a trip (origin, destination, dates, travellers, cabin), each with its price, fare rules and expiry',
      input: searchFlightsInput,
      output: z.object({ items: z.array(offerOutput) }),
      errors: ['UPSTREAM_ERROR'],
      handler: async (i, { kind, user }) => ({ items: await search(kind, user.id, i) }),
    }),
    kindOperation({
      name: 'getFlightOffer',
      method: 'POST',
      purpose: "one of the caller's held offers at its current price (after PRICE_CHANGED: the new price to confirm)",
      input: z.object({ offer_id: offerIdInput }),
      output: offerOutput,
      errors: ['NOT_FOUND'],
      handler: async (i, { kind, user }) => heldOffer(kind, user.id, i.offer_id),
    }),
    kindOperation({
      name: 'cancelFlightBooking',
      method: 'POST',
      purpose:
        "cancel one of the caller's ticketed bookings by its fare's rules (PIN required): the airline's refund (the fare less its cancellation fee) comes back to the wallet once",
      gates: { money: true, pin: true, kycTier: 1 },
      rateLimit: 'money',
      input: cancelFlightInput,
      output: z.object({ id: z.string(), reference: z.string(), cancellation: cancellationOutput }),
      errors: ['NOT_FOUND', 'NOT_ELIGIBLE', 'CONFLICT', 'INVALID_PIN', 'PIN_NOT_SET', 'PIN_LOCKED', 'UPSTREAM_ERROR'],
      handler: async (i, env) => {
        const row = await env.vtu.ownRow(env.user.id, i.id);
        if (!row || row.service !== KIND) throw new AppError('NOT_FOUND', 'Flight booking not found');
        const c = await cancel(env.kind, row);
        return {
          id: row.id,
          reference: row.reference,
          cancellation: {
            refund: toNaira(BigInt(c.refund)),
            fee: toNaira(BigInt(c.fee)),
            cancelledAt: new Date(c.created_at).toISOString(),
          },
        };
      },
    }),
  ],

  prepare: (ctx, i, buyer) => prepare(ctx, buyer.id, i),
  // An offer is one airline's fare at one provider: no fallback elsewhere.
  wholesaleAt: async () => null,
  view: flightView,
  viewFields: { flight: flightViewField },
  // "Book again" starts from the same offer; once it expired the app searches again.
  repeat: (r) => {
    const b = bookingOf(r);
    return { offer_id: b?.offerId ?? '', phone: r.phone ?? r.recipient, email: b?.email ?? '', amount: toNaira(r.amount) };
  },
  // The signed receipt names the trip and the booking; the PNR and the travellers are masked on the public page.
  receiptLines: (r, out) => {
    const b = bookingOf(r);
    const d = (out.details ?? {}) as Details;
    if (!b) return [];
    return [
      { label: 'Flight', value: `${b.airline} ${b.segments[0]?.flightNumber ?? ''}`.trim() },
      { label: 'Route', value: b.route },
      { label: 'Departure', value: b.departsAt },
      ...(d.pnr ? [{ label: 'PNR', value: d.pnr, mask: true }] : []),
      { label: 'Travellers', value: b.passengers.map((p) => `${p.first_name} ${p.last_name}`).join(', '), mask: true },
    ];
  },
  deliveredNote: (_r, out) => {
    const pnr = (out.details as Details | undefined)?.pnr;
    return pnr ? ` Booking reference (PNR): ${pnr}.` : '';
  },
  adapters: { c: (p) => createFlightAdapterC(p.client) },
  simulator: () => import('./simulator.js').then((m) => m.flightsSimulator),
};
