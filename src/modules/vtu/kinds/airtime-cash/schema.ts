import { bigint, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Typed view of migration 0430_airtime_cash.sql (the SQL file is the source of truth). */
export const airtimeCashRequests = pgTable(
  'airtime_cash_requests',
  {
    id: uuid('id').primaryKey(),
    reference: text('reference').notNull().unique(),
    requestId: text('request_id').notNull().unique(),
    userId: uuid('user_id').notNull(),
    provider: text('provider').notNull(),
    network: text('network').notNull(),
    sender: text('sender').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    rateBp: integer('rate_bp').notNull(),
    receivingNumber: text('receiving_number').notNull(),
    ussd: text('ussd').notNull(),
    providerReference: text('provider_reference'),
    status: text('status').notNull(),
    amountReceived: bigint('amount_received', { mode: 'bigint' }),
    credited: bigint('credited', { mode: 'bigint' }),
    failureReason: text('failure_reason'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }),
    requeryCount: integer('requery_count').notNull().default(0),
    lastProviderStatus: text('last_provider_status'),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('airtime_cash_requests_user_idx').on(t.userId, t.createdAt, t.id),
    index('airtime_cash_requests_sender_idx').on(t.sender, t.createdAt),
    index('airtime_cash_requests_due_idx').on(t.nextCheckAt),
  ],
);

export const airtimeCashNumbers = pgTable(
  'airtime_cash_numbers',
  {
    userId: uuid('user_id').notNull(),
    phone: text('phone').notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.phone] })],
);

export const sandboxAirtimeCash = pgTable('sandbox_airtime_cash', {
  requestId: text('request_id').primaryKey(),
  network: text('network').notNull(),
  sender: text('sender').notNull(),
  amount: bigint('amount', { mode: 'bigint' }).notNull(),
  receivingNumber: text('receiving_number').notNull(),
  status: text('status').notNull(),
  amountReceived: bigint('amount_received', { mode: 'bigint' }),
  receiveAt: timestamp('receive_at', { withTimezone: true }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});
