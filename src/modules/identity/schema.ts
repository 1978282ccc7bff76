import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    username: text('username'),
    fullName: text('full_name'),
    phone: text('phone'),
    phoneVerifiedAt: timestamp('phone_verified_at', { withTimezone: true }),
    status: text('status').notNull().default('active'), // active | closed
    kycTier: smallint('kyc_tier').notNull().default(0),
    signupReferralCode: text('signup_referral_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), uniqueIndex('users_username_key').on(t.username)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    status: text('status').notNull().default('active'), // active | revoked | superseded
    method: text('method').notNull(), // email_otp | pin | external
    deviceId: text('device_id'),
    userAgent: text('user_agent'),
    ip: text('ip'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** A person's last request (migration 1010, issue 41): an operator's session ends after OPERATOR_IDLE_MINUTES without one. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const refreshTokens = pgTable('refresh_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  sessionId: uuid('session_id').notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

export const otpCodes = pgTable(
  'otp_codes',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    purpose: text('purpose').notNull(), // login | phone | stepup
    identifier: text('identifier').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Who asked for the code (the requester's IP), for per-requester send caps. */
    requester: text('requester'),
  },
  (t) => [index('otp_codes_lookup_idx').on(t.purpose, t.identifier, t.createdAt)],
);

export const userPins = pgTable(
  'user_pins',
  {
    userId: uuid('user_id').notNull(),
    kind: text('kind').notNull(), // transaction | login
    hash: text('hash').notNull(),
    salt: text('salt').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    lockCount: integer('lock_count').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    enabled: boolean('enabled').notNull().default(true),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    checkMac: text('check_mac'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

/** Wrong guesses at one code, per requester (migration 0800): one requester cannot burn a code for everyone. */
export const otpGuesses = pgTable(
  'otp_guesses',
  {
    codeId: bigint('code_id', { mode: 'bigint' }).notNull(),
    requester: text('requester').notNull(),
    wrong: integer('wrong').notNull(),
  },
  (t) => [primaryKey({ columns: [t.codeId, t.requester] })],
);

/** Failures and locks per key (migration 0800): counters that hold under concurrency. */
export const attemptLimits = pgTable('attempt_limits', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lockCount: integer('lock_count').notNull().default(0),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * Devices that signed in to an account (migration 0910): the device cookie's token, stored as its SHA-256, and the
 * client of its last sign-in (migration 0911): its address key and a hash of its User-Agent.
 */
export const knownDevices = pgTable(
  'known_devices',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    addressKey: text('address_key'),
    clientHash: text('client_hash'),
  },
  (t) => [uniqueIndex('known_devices_token_key').on(t.tokenHash), index('known_devices_user_idx').on(t.userId)],
);

/** Operator roles (migration 1000): admin, finance or support, granted by an admin (docs/security.md). */
export const operatorRoles = pgTable(
  'operator_roles',
  {
    userId: uuid('user_id').notNull(),
    role: text('role').notNull(), // admin | finance | support
    grantedBy: uuid('granted_by'),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.role] }), index('operator_roles_role_idx').on(t.role)],
);
