import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/** Migration 0100_security.sql is the source of truth; this is the typed view. */
export const totpFactors = pgTable('totp_factors', {
  userId: uuid('user_id').primaryKey(),
  secretEnc: text('secret_enc').notNull(), // AES-256-GCM with DATA_ENCRYPTION_KEY
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastStep: bigint('last_step', { mode: 'bigint' }), // last accepted RFC 6238 time step (replay guard)
  // Unused since authenticator tries are budgeted in attempt_limits (per known device, per account otherwise): kept
  // with their defaults rather than dropped; no code reads or writes them.
  failedAttempts: integer('failed_attempts').notNull().default(0),
  lockCount: integer('lock_count').notNull().default(0),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

export const stepupGrants = pgTable(
  'stepup_grants',
  {
    id: uuid('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id').notNull(),
    sessionId: uuid('session_id'),
    method: text('method').notNull(), // totp | email
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('stepup_grants_token_hash_key').on(t.tokenHash), index('stepup_grants_user_idx').on(t.userId)],
);

export const loginEvents = pgTable(
  'login_events',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id'),
    kind: text('kind').notNull(), // login | failure | failure_alert
    source: text('source').notNull(), // client | server
    method: text('method'),
    device: text('device'),
    sessionId: uuid('session_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    identifierHash: text('identifier_hash'),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('login_events_user_idx').on(t.userId, t.kind, t.createdAt),
    index('login_events_identifier_idx').on(t.identifierHash, t.kind, t.createdAt),
    uniqueIndex('login_events_session_login_key')
      .on(t.sessionId)
      .where(sql`kind = 'login'`),
  ],
);

export const phoneVerifications = pgTable(
  'phone_verifications',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    phone: text('phone').notNull(),
    userId: uuid('user_id'),
    verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('phone_verifications_phone_idx').on(t.phone, t.verifiedAt)],
);

/** The "this wasn't me" links of credential-change notices (migration 0800). */
export const credentialNotices = pgTable('credential_notices', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  change: text('change').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/** The owner's two-factor resets, effective after a delay unless cancelled (migration 0800). */
export const twoFactorResets = pgTable('two_factor_resets', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
  effectiveAt: timestamp('effective_at', { withTimezone: true }).notNull(),
  cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  completedAt: timestamp('completed_at', { withTimezone: true }),
  /** Who asked for the removal (migration 0802): 'owner' | 'not_me' (two-factor-removal.ts). */
  origin: text('origin').notNull().default('owner'),
});

/**
 * Passkeys (WebAuthn credentials, migration 1010; everyone's since 1265): an operator's second factor and step-up
 * method, a customer's sign-in and, when chosen, payment confirmation (passkeys.ts).
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    credentialId: text('credential_id').notNull(), // base64url, as the authenticator gave it
    publicKey: text('public_key').notNull(), // COSE public key, base64url
    counter: bigint('counter', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    transports: jsonb('transports')
      .notNull()
      .default(sql`'[]'`),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('passkeys_credential_key').on(t.credentialId), index('passkeys_user_idx').on(t.userId)],
);

/**
 * WebAuthn challenges kept server-side (migration 1010): one use each, bound to user and session, with an expiry. A
 * sign-in's has no user yet; a payment's is bound to its request (binding, migration 1265).
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challenge: text('challenge').primaryKey(),
    userId: uuid('user_id'),
    sessionId: uuid('session_id'),
    purpose: text('purpose').notNull(), // register | stepup | signin | payment
    binding: text('binding'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('webauthn_challenges_user_idx').on(t.userId, t.purpose), index('webauthn_challenges_expires_idx').on(t.expiresAt)],
);

/** Issue 43 (migration 1205): two-factor recovery codes, one use each, stored as keyed hashes. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('recovery_codes_code_hash_key').on(t.codeHash), index('recovery_codes_user_idx').on(t.userId)],
);

/** Issue 43 (migration 1265): whether the customer confirms payments with a passkey instead of the transaction PIN. */
export const passkeySettings = pgTable('passkey_settings', {
  userId: uuid('user_id').primaryKey(),
  payments: boolean('payments').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
