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

export const sandboxProcessorTransactions = pgTable('sandbox_processor_transactions', {
  reference: text('reference').primaryKey(),
  accessCode: text('access_code').notNull().unique(),
  email: text('email').notNull(),
  amount: bigint('amount', { mode: 'bigint' }).notNull(),
  amountPaid: bigint('amount_paid', { mode: 'bigint' }),
  currency: text('currency').notNull().default('NGN'),
  status: text('status').notNull(),
  channel: text('channel').notNull().default('card'),
  callbackUrl: text('callback_url'),
  metadata: jsonb('metadata'),
  customerCode: text('customer_code'),
  receiverAccountNumber: text('receiver_account_number'),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

export const sandboxProcessorCustomers = pgTable('sandbox_processor_customers', {
  customerCode: text('customer_code').primaryKey(),
  email: text('email').notNull().unique(),
  firstName: text('first_name'),
  lastName: text('last_name'),
  phone: text('phone'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

export const sandboxProcessorAccounts = pgTable('sandbox_processor_accounts', {
  accountNumber: text('account_number').primaryKey(),
  customerCode: text('customer_code').notNull().unique(),
  accountName: text('account_name').notNull(),
  bankName: text('bank_name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/** The sandbox processor's transfers to bank accounts (migration 1210), one per reference. */
export const sandboxProcessorTransfers = pgTable('sandbox_processor_transfers', {
  reference: text('reference').primaryKey(),
  transferCode: text('transfer_code').notNull().unique(),
  recipientCode: text('recipient_code').notNull(),
  bankCode: text('bank_code').notNull(),
  accountNumber: text('account_number').notNull(),
  accountName: text('account_name').notNull(),
  amount: bigint('amount', { mode: 'bigint' }).notNull(),
  status: text('status').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** Sandbox NIN simulator records (POST /sandbox/identity/nin); in the database so every instance sees them. */
export const sandboxNinRecords = pgTable('sandbox_nin_records', {
  nin: text('nin').primaryKey(),
  firstName: text('first_name').notNull(),
  middleName: text('middle_name'),
  lastName: text('last_name').notNull(),
  phone: text('phone').notNull(),
  dateOfBirth: text('date_of_birth').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});
