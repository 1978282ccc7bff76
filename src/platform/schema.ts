import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The audit trail: the registry writes one row per admin call (migration 1001, http/admin-audit.ts); code outside an
 * operator call writes its rows with db/audit.ts's writeAudit.
 */
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
