import {
  bigserial,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/** Private KYC uploads; `path` is the random name handed to the owner, `storage_key` where the bytes live. */
export const kycFiles = pgTable(
  'kyc_files',
  {
    path: text('path').primaryKey(),
    userId: uuid('user_id').notNull(),
    storageKey: text('storage_key').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('kyc_files_user_idx').on(t.userId, t.createdAt)],
);

export const kycSubmissions = pgTable(
  'kyc_submissions',
  {
    id: uuid('id').primaryKey(),
    seq: bigserial('seq', { mode: 'bigint' }).notNull(), // insertion order (created_at ties under a test clock)
    userId: uuid('user_id').notNull(),
    tier: smallint('tier').notNull(), // 1 liveness, 2 NIN + phone, 3 bank + ID document
    status: text('status').notNull(), // pending | approved | rejected
    files: jsonb('files').notNull(), // [{role, path}]
    verifiedName: text('verified_name'),
    details: jsonb('details').notNull(), // non-sensitive facts only (masked numbers, check results)
    identifierHash: text('identifier_hash'), // keyed hash of the NIN: one NIN, one account
    payloadEncrypted: text('payload_encrypted'), // NIN / account number and provider payloads, AES-GCM
    reason: text('reason'),
    reviewedBy: uuid('reviewed_by'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('kyc_submissions_user_idx').on(t.userId, t.tier, t.createdAt),
    index('kyc_submissions_status_idx').on(t.status, t.createdAt),
    index('kyc_submissions_identifier_idx').on(t.tier, t.identifierHash),
    uniqueIndex('kyc_submissions_open_key')
      .on(t.userId, t.tier)
      .where(sql`status IN ('pending', 'approved')`),
  ],
);

/** Sandbox bank name-enquiry records (POST /sandbox/banks/accounts). */
export const sandboxBankAccounts = pgTable(
  'sandbox_bank_accounts',
  {
    bankCode: text('bank_code').notNull(),
    accountNumber: text('account_number').notNull(),
    accountName: text('account_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.bankCode, t.accountNumber] })],
);

/** NIN look-ups taken per user per Lagos day (lookupNin, submitNinKyc), against NIN_LOOKUPS_PER_DAY. */
export const kycNinLookups = pgTable(
  'kyc_nin_lookups',
  {
    userId: uuid('user_id').notNull(),
    day: date('day').notNull(),
    used: integer('used').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);
