import { integer, json, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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

/** The operators' audit trail; the registry writes one row per admin call (migration 1001, http/admin-audit.ts). */
export const auditLog = pgTable('audit_log', {
  id: uuid('id').primaryKey(),
  actorId: uuid('actor_id'),
  /** The operation's name (registry rows) or the handler's action name (older rows, customers' own changes). */
  action: text('action').notNull(),
  subjectType: text('subject_type'),
  subjectId: text('subject_id'),
  details: jsonb('details'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  roles: text('roles').array(),
  outcome: text('outcome'), // ok | pending | an error code; null on handler-written rows
  requestId: text('request_id'),
  ip: text('ip'),
  input: jsonb('input'),
  targets: jsonb('targets'),
  targetIds: text('target_ids').array(),
  beforeState: jsonb('before_state'),
  afterState: jsonb('after_state'),
});
