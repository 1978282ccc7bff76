import { bigserial, doublePrecision, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** What the sandbox mail and SMS transports captured (read at /sandbox/mailbox and /sandbox/sms). */
export const sandboxMessages = pgTable(
  'sandbox_messages',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    channel: text('channel').notNull(), // email | sms
    to: text('to').notNull(),
    subject: text('subject'),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sandbox_messages_to_idx').on(t.channel, t.to, t.id)],
);

/** The liveness simulator's magic outcome per customer e-mail (POST /sandbox/identity/liveness); none set: pass. */
export const sandboxLivenessOutcomes = pgTable('sandbox_liveness_outcomes', {
  email: text('email').primaryKey(),
  outcome: text('outcome').notNull(), // pass | fail | review | down | timeout
  score: doublePrecision('score'),
  reason: text('reason'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});
