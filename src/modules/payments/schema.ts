import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';

/** Typed view of migration 0300_payments.sql (wallet and payments). Queries use raw SQL. */
export const topupIntents = pgTable(
  'topup_intents',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    reference: text('reference').notNull().unique(),
    processor: text('processor').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    status: text('status').notNull().default('pending'), // pending | success | failed | abandoned
    origin: text('origin').notNull(), // intent | api
    email: text('email').notNull(),
    callbackUrl: text('callback_url'),
    checkoutUrl: text('checkout_url'),
    accessCode: text('access_code'),
    amountPaid: bigint('amount_paid', { mode: 'bigint' }),
    channel: text('channel'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    failureReason: text('failure_reason'),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('topup_intents_user_idx').on(t.userId, t.createdAt), index('topup_intents_open_idx').on(t.status, t.createdAt)],
);

export const processorEvents = pgTable('processor_events', {
  id: uuid('id').primaryKey(),
  processor: text('processor').notNull(),
  payloadHash: text('payload_hash').notNull().unique(),
  event: text('event').notNull(),
  reference: text('reference'),
  payload: jsonb('payload').notNull(),
  status: text('status').notNull().default('received'),
  outcome: text('outcome'),
  deliveries: integer('deliveries').notNull().default(1),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  lastReceivedAt: timestamp('last_received_at', { withTimezone: true }).notNull(),
  processedAt: timestamp('processed_at', { withTimezone: true }),
});

export const paymentSettlements = pgTable(
  'payment_settlements',
  {
    id: uuid('id').primaryKey(),
    processor: text('processor').notNull(),
    processorReference: text('processor_reference').notNull(),
    userId: uuid('user_id').notNull(),
    intentId: uuid('intent_id'),
    kind: text('kind').notNull(), // topup | dva
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    channel: text('channel'),
    source: text('source').notNull(), // webhook | verify | reconciliation
    ledgerReference: text('ledger_reference').notNull().unique(),
    overCap: boolean('over_cap').notNull().default(false),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [unique().on(t.processor, t.processorReference), index('payment_settlements_user_idx').on(t.userId, t.createdAt)],
);

export const dedicatedAccounts = pgTable('dedicated_accounts', {
  userId: uuid('user_id').primaryKey(),
  processor: text('processor').notNull(),
  customerCode: text('customer_code').notNull(),
  accountNumber: text('account_number').notNull(),
  accountName: text('account_name').notNull(),
  bankName: text('bank_name').notNull(),
  providerId: text('provider_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

export const walletFlags = pgTable('wallet_flags', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  kind: text('kind').notNull(),
  reference: text('reference').notNull(),
  details: jsonb('details'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  resolvedAt: timestamp('resolved_at', { withTimezone: true }),
});

/** Issue 43 (migration 1210): a withdrawal to a bank account; status pending | success | failed | reversed. */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    reference: text('reference').notNull().unique(),
    processor: text('processor').notNull(),
    bankCode: text('bank_code').notNull(),
    bankName: text('bank_name').notNull(),
    accountNumber: text('account_number').notNull(),
    accountName: text('account_name').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    fee: bigint('fee', { mode: 'bigint' }).notNull(),
    status: text('status').notNull().default('pending'),
    transferCode: text('transfer_code'),
    failureReason: text('failure_reason'),
    polls: integer('polls').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [index('withdrawals_user_idx').on(t.userId, t.createdAt)],
);
