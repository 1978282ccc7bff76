import { sql } from 'drizzle-orm';
import { one, type Executor } from '../../../../db/client.js';
import type { Change } from '../../../../platform/change.js';
import type { Narrowed, RowOf } from '../../../../db/rows.js';
import type { Itinerary } from './adapter.js';
import type { flightCancellations, flightOffers } from './schema.js';

/** Flights' queries: the offers a customer's search answered (held until booked or expired) and cancellations. */
export type OfferRow = Narrowed<RowOf<typeof flightOffers>, { search: Record<string, unknown>; itinerary: Itinerary }>;
export type CancellationRow = RowOf<typeof flightCancellations>;

const OFFER_COLS = sql.raw(`id, user_id::text AS user_id, provider, provider_offer_id, search, itinerary, passengers,
  wholesale::text AS wholesale, refundable, cancel_fee::text AS cancel_fee, departs_at, expires_at, created_at, updated_at`);

export interface NewOffer {
  id: string;
  userId: string;
  provider: string;
  providerOfferId: string;
  search: Record<string, unknown>;
  itinerary: Itinerary;
  passengers: number;
  wholesale: bigint;
  refundable: boolean;
  cancelFee: bigint;
  departsAt: Date;
  expiresAt: Date;
  now: Date;
}

/** Writes a search's offers in one statement. */
export async function insertOffers(exec: Executor, offers: NewOffer[]): Promise<void> {
  if (!offers.length) return;
  const values = offers.map(
    (o) =>
      sql`(${o.id}, ${o.userId}::uuid, ${o.provider}, ${o.providerOfferId}, ${JSON.stringify(o.search)}::jsonb, ${JSON.stringify(o.itinerary)}::jsonb,
        ${o.passengers}, ${o.wholesale}::bigint, ${o.refundable}, ${o.cancelFee}::bigint, ${o.departsAt}::timestamptz, ${o.expiresAt}::timestamptz,
        ${o.now}::timestamptz, ${o.now}::timestamptz)`,
  );
  await exec.execute(
    sql`INSERT INTO flight_offers (id, user_id, provider, provider_offer_id, search, itinerary, passengers, wholesale, refundable, cancel_fee,
          departs_at, expires_at, created_at, updated_at)
        VALUES ${sql.join(values, sql`, `)}`,
  );
}

export async function getOwnOffer(exec: Executor, userId: string, id: string): Promise<OfferRow | undefined> {
  return one<OfferRow>(exec, sql`SELECT ${OFFER_COLS} FROM flight_offers WHERE id = ${id} AND user_id = ${userId}`);
}

/** Deletes the caller's offers that expired before `before` (a booking keeps what it needs of its offer). */
export async function purgeExpiredOffers(exec: Executor, userId: string, before: Date): Promise<void> {
  await exec.execute(sql`DELETE FROM flight_offers WHERE user_id = ${userId} AND expires_at < ${before}`);
}

/** The provider's answer to a fare check: its current fare and expiry (a moved fare is what the next booking pays). */
export async function refreshOffer(exec: Executor, id: string, wholesale: bigint, expiresAt: Date, now: Date): Promise<OfferRow> {
  return (await one<OfferRow>(
    exec,
    sql`UPDATE flight_offers SET wholesale = ${wholesale}, expires_at = ${expiresAt}, updated_at = ${now} WHERE id = ${id} RETURNING ${OFFER_COLS}`,
  ))!;
}

export async function getCancellation(exec: Executor, transactionId: string): Promise<CancellationRow | undefined> {
  return one<CancellationRow>(
    exec,
    sql`SELECT transaction_id::text AS transaction_id, user_id::text AS user_id, refund::text AS refund, fee::text AS fee, created_at
        FROM flight_cancellations WHERE transaction_id = ${transactionId}`,
  );
}

/**
 * The cancellation on its change (the refund's posting, or alone for a refund of nothing): its row, written once,
 * and the booking's own row (details.cancellation, what the transaction view shows), both written exactly when the
 * change is made, so the view and the money never disagree.
 */
export function writeCancellation(
  change: Change,
  c: { transactionId: string; userId: string; refund: bigint; fee: bigint; now: Date },
): Change {
  const cancellation = JSON.stringify({ refund: c.refund.toString(), fee: c.fee.toString(), cancelledAt: c.now.toISOString() });
  return change
    .write(
      (each) =>
        sql`INSERT INTO flight_cancellations (transaction_id, user_id, refund, fee, created_at)
          SELECT ${c.transactionId}::uuid, ${c.userId}::uuid, ${c.refund}::bigint, ${c.fee}::bigint, ${c.now}::timestamptz FROM ${each}
          ON CONFLICT (transaction_id) DO NOTHING`,
    )
    .write(
      (each) =>
        sql`UPDATE vtu_transactions SET details = COALESCE(details, '{}'::jsonb) || jsonb_build_object('cancellation', ${cancellation}::jsonb),
            updated_at = ${c.now}::timestamptz
          WHERE id = ${c.transactionId}::uuid AND EXISTS (SELECT 1 FROM ${each})`,
    );
}
