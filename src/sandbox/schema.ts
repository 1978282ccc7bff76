import { bigint, bigserial, boolean, doublePrecision, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** What the sandbox mail and SMS transports captured (read at /sandbox/mailbox and /sandbox/sms). */
export const sandboxMessages = pgTable(
  'sandbox_messages',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    channel: text('channel').notNull(), // email | sms
    to: text('to').notNull(),
    subject: text('subject'),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sandbox_messages_to_idx').on(t.channel, t.to, t.id)],
);

/** The liveness simulator's magic outcome per customer e-mail (POST /sandbox/identity/liveness); none set: pass. */
export const sandboxLivenessOutcomes = pgTable('sandbox_liveness_outcomes', {
  email: text('email').primaryKey(),
  outcome: text('outcome').notNull(), // pass | fail | review | down | timeout
  score: doublePrecision('score'),
  reason: text('reason'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/** Provider C's flight simulator (migration 0410): the offers it answered (a repriced one keeps its new fare). */
export const sandboxFlightOffers = pgTable('sandbox_flight_offers', {
  offerId: text('offer_id').primaryKey(),
  search: jsonb('search').notNull(),
  itinerary: jsonb('itinerary').notNull(),
  passengers: integer('passengers').notNull(),
  amount: bigint('amount', { mode: 'bigint' }).notNull(),
  refundable: boolean('refundable').notNull(),
  cancelFee: bigint('cancel_fee', { mode: 'bigint' }).notNull(),
  departsAt: timestamp('departs_at', { withTimezone: true }).notNull(),
  repriced: boolean('repriced').notNull().default(false),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/** Provider C's flight simulator: one row per cancelled booking (a repeated cancellation answers the same refund). */
export const sandboxFlightCancellations = pgTable('sandbox_flight_cancellations', {
  requestId: text('request_id').primaryKey(),
  refund: bigint('refund', { mode: 'bigint' }).notNull(),
  fee: bigint('fee', { mode: 'bigint' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});
