import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';

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
    /** Suspended by an operator (migration 1250): refused with KEY_SUSPENDED until resumed. */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    suspendedBy: uuid('suspended_by'),
  },
  (t) => [index('api_keys_user_idx').on(t.userId, t.createdAt)],
);

/** Typed view of migration 1201 (signed outbound webhooks, issue 45). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    secretEncrypted: text('secret_encrypted').notNull(),
    status: text('status').notNull(), // active | disabled
    disabledReason: text('disabled_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_endpoints_user_idx')
      .on(t.userId)
      .where(sql`status = 'active'`),
  ],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    body: text('body').notNull(),
    status: text('status').notNull(), // pending | succeeded | failed
    attempts: integer('attempts').notNull().default(0),
    responseStatus: integer('response_status'),
    responseMs: integer('response_ms'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
  },
  (t) => [unique().on(t.endpointId, t.eventId), index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt)],
);
