import { bigint, date, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Typed view of migration 1200 (API keys, issue 45). */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    name: text('name').notNull(),
    mode: text('mode').notNull(), // test | live
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull().unique(),
    scopes: text('scopes').array().notNull(),
    allowedIps: text('allowed_ips').array(),
    dailyLimit: bigint('daily_limit', { mode: 'bigint' }),
    spentDay: date('spent_day'),
    spentToday: bigint('spent_today', { mode: 'bigint' }).notNull().default(0n),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    rolledFrom: text('rolled_from'),
  },
  (t) => [index('api_keys_user_idx').on(t.userId, t.createdAt)],
);
