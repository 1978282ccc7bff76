import { bigint, bigserial, boolean, date, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Double-entry ledger (docs/design.md §6). User accounts carry a materialised balance updated under a row lock;
 * system accounts are append-only (balance = sum of entries) so they never serialise traffic.
 */
export const accounts = pgTable(
  'accounts',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    code: text('code').notNull().unique(), // user:<uuid>:wallet, system:collections, ...
    kind: text('kind').notNull(),
    userId: uuid('user_id'),
    materialised: boolean('materialised').notNull(),
    allowNegative: boolean('allow_negative').notNull(),
    balance: bigint('balance', { mode: 'bigint' }).notNull().default(0n),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** The wallet's outflow counter for the daily limit: the Lagos day it counts and the signed sum (migration 0004). */
    outflowDay: date('outflow_day'),
    outflowToday: bigint('outflow_today', { mode: 'bigint' }).notNull().default(0n),
  },
  (t) => [index('accounts_user_idx').on(t.userId)],
);

export const ledgerTransactions = pgTable('ledger_transactions', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  reference: text('reference').notNull().unique(),
  type: text('type').notNull(),
  description: text('description').notNull(),
  metadata: jsonb('metadata'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    transactionId: bigint('transaction_id', { mode: 'bigint' }).notNull(),
    accountId: bigint('account_id', { mode: 'bigint' }).notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    balanceAfter: bigint('balance_after', { mode: 'bigint' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('ledger_entries_account_idx').on(t.accountId, t.id), index('ledger_entries_tx_idx').on(t.transactionId)],
);
