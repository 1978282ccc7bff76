import { AppError, notFound } from '../../../../kernel/errors.js';
import { DAY } from '../../../../kernel/clock.js';
import { prefixedId } from '../../../../kernel/ids.js';
import { formatNaira, toNaira } from '../../../../kernel/money.js';
import { floatAccount } from '../../model.js';
import type { VtuRow } from '../../repository.js';
import type { KindContext, Prepared } from '../kind.js';
import type { BookingInputs, FlightAdapter, Passenger, ProviderOffer } from './adapter.js';
import type { BookFlightInput, PassengerInput, SearchFlightsInput } from './inputs.js';
import * as repo from './repository.js';

/**
 * Flights (issue 32 item 4): a search answers the provider's offers at our retail price, each held for the customer
 * (flight_offers) until its expiry; a booking names one of them, its passengers and a contact, and is a purchase like
 * any other (the core's debit, attempt, requery, refund): before any debit the fare is checked at the provider, and a
 * fare that moved is PRICE_CHANGED with the new price (the offer keeps it, so the next booking pays it). A ticketed
 * booking may be cancelled by its fare's rules: the provider's refund is credited to the buyer once (ledger reference
 * flight_cancel_<reference>, with the cancellation row in the same statement).
 */
export const KIND = 'flights';

/** The inputs a booking keeps on its transaction (vtu_transactions.inputs): what the adapter sends and the view shows. */
export interface StoredBooking extends BookingInputs {
  offerId: string;
  route: string;
  departsAt: string;
  airline: string;
  fareName: string;
  refundable: boolean;
  segments: { flightNumber: string; origin: string; destination: string; departsAt: string; arrivesAt: string }[];
}

const flightAdapter = (ctx: KindContext, provider: string) => ctx.adapter(provider as never) as unknown as FlightAdapter;

/** An offer as the customer sees it: the retail price (wholesale + this kind's markup), the fare rules, the expiry. */
function offerView(row: repo.OfferRow, retail: bigint) {
  const s = row.search as Record<string, number>;
  return {
    offer_id: row.id,
    airline: row.itinerary.airline,
    cabin: row.itinerary.cabin,
    fare_name: row.itinerary.fareName,
    segments: row.itinerary.segments.map((g) => ({
      flight_number: g.flightNumber,
      origin: g.origin,
      destination: g.destination,
      departs_at: g.departsAt,
      arrives_at: g.arrivesAt,
    })),
    passengers: { adults: s.adults, children: s.children, infants: s.infants },
    price: toNaira(retail),
    refundable: row.refundable,
    cancellation_fee: toNaira(BigInt(row.cancel_fee)),
    expires_at: new Date(row.expires_at).toISOString(),
  };
}

/** Age in whole years on a date (both YYYY-MM-DD or ISO). */
function ageOn(dateOfBirth: string, on: Date): number {
  const dob = new Date(`${dateOfBirth}T00:00:00Z`);
  let age = on.getUTCFullYear() - dob.getUTCFullYear();
  const m = on.getUTCMonth() - dob.getUTCMonth();
  if (m < 0 || (m === 0 && on.getUTCDate() < dob.getUTCDate())) age--;
  return age;
}

const bad = (path: string, message: string) => new AppError('VALIDATION_FAILED', message, { issues: [{ path, message }] });

/** The travellers must be the offer's: as many of each type as searched for, each of an age that fits the type. */
function checkPassengers(passengers: PassengerInput[], offer: repo.OfferRow) {
  const s = offer.search as Record<string, number>;
  const want = { adult: s.adults, child: s.children, infant: s.infants };
  const have = { adult: 0, child: 0, infant: 0 };
  for (const p of passengers) have[p.type]++;
  if (have.adult !== want.adult || have.child !== want.child || have.infant !== want.infant)
    throw bad(
      'passengers',
      `This offer is for ${want.adult} adult(s), ${want.child} child(ren) and ${want.infant} infant(s); name exactly those travellers`,
    );
  const departs = new Date(offer.departs_at);
  passengers.forEach((p, i) => {
    const age = ageOn(p.date_of_birth, departs);
    const fits = p.type === 'infant' ? age >= 0 && age < 2 : p.type === 'child' ? age >= 2 && age < 12 : age >= 12;
    if (!fits)
      throw bad(
        `passengers.${i}.date_of_birth`,
        `${p.first_name} ${p.last_name} is ${age < 0 ? 'not yet born' : `${age}`} on the day of travel: an ${p.type === 'adult' ? 'adult is 12 or older' : p.type === 'child' ? 'child is 2 to 11' : 'infant is under 2'}`,
      );
  });
}

export async function airports(ctx: KindContext) {
  const provider = (await ctx.route())[0];
  return ctx.upstream(() => flightAdapter(ctx, provider).airports());
}

export async function search(ctx: KindContext, userId: string, input: SearchFlightsInput) {
  const { db, clock } = ctx.platform;
  const provider = (await ctx.route())[0];
  const offers: ProviderOffer[] = await ctx.upstream(() =>
    flightAdapter(ctx, provider).search({
      origin: input.origin,
      destination: input.destination,
      departureDate: input.departure_date,
      returnDate: input.return_date ?? null,
      adults: input.adults,
      children: input.children,
      infants: input.infants,
      cabin: input.cabin,
    }),
  );
  const now = clock.now();
  const rows: repo.NewOffer[] = offers.map((o) => ({
    id: prefixedId('fof', now.getTime()),
    userId,
    provider,
    providerOfferId: o.providerOfferId,
    search: { ...input },
    itinerary: o.itinerary,
    passengers: o.passengers.adults + o.passengers.children + o.passengers.infants,
    wholesale: o.amount,
    refundable: o.refundable,
    cancelFee: o.cancelFee,
    departsAt: o.departsAt,
    expiresAt: o.expiresAt,
    now,
  }));
  // The caller's offers expired a day ago are of no use to anyone: they go as new ones come.
  await repo.purgeExpiredOffers(db, userId, new Date(now.getTime() - DAY));
  await repo.insertOffers(db, rows);
  const items = [];
  for (const r of rows) {
    const { retail } = await ctx.priced(provider, r.wholesale);
    items.push(
      offerView(
        {
          id: r.id,
          user_id: userId,
          provider,
          provider_offer_id: r.providerOfferId,
          search: r.search,
          itinerary: r.itinerary,
          passengers: r.passengers,
          wholesale: r.wholesale.toString(),
          refundable: r.refundable,
          cancel_fee: r.cancelFee.toString(),
          departs_at: r.departsAt,
          expires_at: r.expiresAt,
          created_at: now,
          updated_at: now,
        },
        retail,
      ),
    );
  }
  return items;
}

/**
 * A booking's checks and price before any debit: the caller's own unexpired offer, its travellers, the fare still
 * the one at the provider (a moved fare is kept and answered as PRICE_CHANGED), and the price the buyer confirmed.
 */
export async function prepare(ctx: KindContext, userId: string, i: BookFlightInput): Promise<Prepared> {
  const { db, clock } = ctx.platform;
  const offer = await repo.getOwnOffer(db, userId, i.offer_id);
  if (!offer) throw notFound('Flight offer');
  const now = clock.now();
  if (new Date(offer.expires_at) <= now)
    throw new AppError('CONFLICT', `This offer expired at ${new Date(offer.expires_at).toISOString()}; search again for current fares`);
  checkPassengers(i.passengers, offer);
  const provider = offer.provider as Awaited<ReturnType<KindContext['route']>>[number];
  const check = await ctx.upstream(() => flightAdapter(ctx, provider).check(offer.provider_offer_id, i.phone));
  if (check.status === 'gone')
    throw new AppError('CONFLICT', 'This offer is no longer available at the airline; search again for current fares');
  let current = offer;
  if (check.offer.amount !== BigInt(offer.wholesale) || check.offer.expiresAt.getTime() !== new Date(offer.expires_at).getTime())
    current = await repo.refreshOffer(db, offer.id, check.offer.amount, check.offer.expiresAt, now);
  const p = await ctx.priced(provider, BigInt(current.wholesale));
  if (BigInt(current.wholesale) !== BigInt(offer.wholesale))
    throw new AppError('PRICE_CHANGED', `The airline changed this fare: it is now ${formatNaira(p.retail)}; confirm the new price to book`);
  ctx.assertPrice(i.amount, p.retail, 'this flight');
  const it = current.itinerary;
  const first = it.segments[0];
  const inputs: StoredBooking = {
    offerId: current.id,
    providerOfferId: current.provider_offer_id,
    passengers: i.passengers as Passenger[],
    email: i.email,
    route: `${first.origin}-${first.destination}${it.segments.length > 1 ? `-${it.segments[it.segments.length - 1].destination}` : ''}`,
    departsAt: first.departsAt,
    airline: it.airline.name,
    fareName: it.fareName,
    refundable: current.refundable,
    segments: it.segments,
  };
  return {
    service: KIND,
    recipient: i.phone,
    phone: i.phone,
    quantity: i.passengers.length,
    inputs: inputs as unknown as Record<string, unknown>,
    ported: false,
    provider,
    ...p,
  };
}

/**
 * Cancels a ticketed booking of the caller by its fare's rules. A non-refundable fare or a flight already gone is
 * refused before the provider is asked; the provider's refund is credited once (a repeated cancellation answers
 * the recorded one), with its 'vtu.refunded'; an answer we cannot read leaves the booking as it was (try again: the
 * provider answers a repeated cancellation with the same refund).
 */
export async function cancel(ctx: KindContext, row: VtuRow) {
  const { db, clock, work } = ctx.platform;
  if (row.service !== KIND) throw notFound('Flight booking');
  const done = await repo.getCancellation(db, row.id);
  if (done) return done;
  if (row.status !== 'success') throw new AppError('CONFLICT', 'Only a ticketed booking can be cancelled');
  const b = (row as VtuRow & { inputs: StoredBooking | null }).inputs;
  if (!b) throw new AppError('CONFLICT', 'This booking has no flight details');
  // The fare's rules as booked (kept with the booking: the held offer itself is purged a day after it expires).
  if (!b.refundable) throw new AppError('NOT_ELIGIBLE', 'This fare is not refundable: cancelling it would return nothing');
  if (new Date(b.departsAt) <= clock.now()) throw new AppError('NOT_ELIGIBLE', 'This flight has already departed');
  const out = await flightAdapter(ctx, row.provider).cancel(row.request_id);
  if (out.status === 'unknown')
    throw new AppError('UPSTREAM_ERROR', 'The airline did not confirm the cancellation; try again shortly (it will not be refunded twice)');
  if (out.status === 'refused') throw new AppError('CONFLICT', `The airline refused the cancellation: ${out.message}`);
  const now = clock.now();
  const change = repo.writeCancellation(work.change(), {
    transactionId: row.id,
    userId: row.user_id,
    refund: out.refund,
    fee: out.fee,
    now,
  });
  // A repeated or concurrent cancellation finds the reference taken: nothing is credited twice.
  if (out.refund === 0n) await change.commit();
  else
    await change
      .post(
        {
          reference: `flight_cancel_${row.reference}`,
          type: 'vtu_refund',
          description: `Refund: flight ${b.route} cancelled (fee ${formatNaira(out.fee)})`,
          entries: [
            { account: floatAccount(row.provider), amount: -out.refund },
            { account: { user: row.user_id, kind: 'wallet' }, amount: out.refund },
          ],
          metadata: { transactionId: row.id },
        },
        { ifPosted: 'skip' },
      )
      .emit('vtu.refunded', {
        userId: row.user_id,
        transactionId: row.id,
        reference: row.reference,
        service: row.service,
        amount: BigInt(row.amount),
        refunded: out.refund,
      })
      .notify({
        userId: row.user_id,
        kind: 'general',
        title: 'Flight cancelled: refunded',
        body: `Your flight ${b.route} was cancelled; ${formatNaira(out.refund)} is back in your wallet (the fare's cancellation fee was ${formatNaira(out.fee)}).`,
        data: {
          event: 'flight_cancelled',
          transactionId: row.id,
          reference: row.reference,
          amount: toNaira(out.refund),
          fee: toNaira(out.fee),
          route: b.route,
        },
      })
      .commit();
  return (await repo.getCancellation(db, row.id))!;
}

/** One of the caller's held offers at its current price (after a fare change, the new one). */
export async function heldOffer(ctx: KindContext, userId: string, offerId: string) {
  const offer = await repo.getOwnOffer(ctx.platform.db, userId, offerId);
  if (!offer) throw notFound('Flight offer');
  const { retail } = await ctx.priced(offer.provider as Awaited<ReturnType<KindContext['route']>>[number], BigInt(offer.wholesale));
  return offerView(offer, retail);
}
