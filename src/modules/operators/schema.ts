import { pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/** Migration 1207_operator_invitations.sql is the source of truth; this is the typed view (issue 44). */
export const operatorInvitations = pgTable(
  'operator_invitations',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    role: text('role').notNull(), // admin | finance | support
    invitedBy: uuid('invited_by').notNull(),
    invitedByEmail: text('invited_by_email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    status: text('status').notNull().default('pending'), // pending | accepted | revoked | expired
    acceptedUserId: uuid('accepted_user_id'),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('operator_invitations_pending_idx')
      .on(t.email, t.role)
      .where(sql`status = 'pending'`),
  ],
);
