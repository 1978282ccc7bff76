import { integer, json, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Idempotency-Key claims and their stored answers (http/idempotency.ts): the transport's own table. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id').notNull(),
    key: text('key').notNull(),
    operation: text('operation').notNull(),
    requestHash: text('request_hash').notNull(),
    status: text('status').notNull(), // in_flight | done
    responseStatus: integer('response_status'),
    responseBody: json('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);
