import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Typed view of migration 0410_flights.sql: the offers a customer's search answered, held until booked or expired. */
export const flightOffers = pgTable(
  'flight_offers',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    provider: text('provider').notNull(),
    providerOfferId: text('provider_offer_id').notNull(),
    search: jsonb('search').notNull(),
    itinerary: jsonb('itinerary').notNull(),
    passengers: integer('passengers').notNull(),
    wholesale: bigint('wholesale', { mode: 'bigint' }).notNull(),
    refundable: boolean('refundable').notNull(),
    cancelFee: bigint('cancel_fee', { mode: 'bigint' }).notNull(),
    departsAt: timestamp('departs_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('flight_offers_user_idx').on(t.userId, t.createdAt)],
);

/** A ticketed booking cancelled by its fare's rules, with the refund credited to the buyer (once). */
export const flightCancellations = pgTable('flight_cancellations', {
  transactionId: uuid('transaction_id').primaryKey(),
  userId: uuid('user_id').notNull(),
  refund: bigint('refund', { mode: 'bigint' }).notNull(),
  fee: bigint('fee', { mode: 'bigint' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});
