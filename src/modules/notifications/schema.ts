import { index, jsonb, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    data: jsonb('data'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('notifications_user_idx').on(t.userId, t.createdAt)],
);

export const broadcasts = pgTable('broadcasts', {
  id: uuid('id').primaryKey(),
  title: text('title').notNull(),
  body: text('body').notNull(),
  audience: jsonb('audience').notNull(),
  startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
  endsAt: timestamp('ends_at', { withTimezone: true }),
  endedAt: timestamp('ended_at', { withTimezone: true }),
  createdBy: uuid('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

export const polls = pgTable('polls', {
  id: uuid('id').primaryKey(),
  broadcastId: uuid('broadcast_id').notNull().unique(),
  question: text('question').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

export const pollOptions = pgTable('poll_options', {
  id: uuid('id').primaryKey(),
  pollId: uuid('poll_id').notNull(),
  label: text('label').notNull(),
  position: smallint('position').notNull(),
});

export const pollVotes = pgTable(
  'poll_votes',
  {
    pollId: uuid('poll_id').notNull(),
    userId: uuid('user_id').notNull(),
    optionId: uuid('option_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.pollId, t.userId] })],
);

export const pushSubscriptions = pgTable('push_subscriptions', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  /** The session that registered it (migration 0501): the subscription ends with that session. */
  sessionId: uuid('session_id').notNull(),
  endpoint: text('endpoint').notNull().unique(),
  p256dh: text('p256dh').notNull(),
  auth: text('auth').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
});

/** SMS sends and their delivery reports (migration 0900), keyed by the gateway's message id. */
export const smsMessages = pgTable(
  'sms_messages',
  {
    provider: text('provider').notNull(),
    messageId: text('message_id').notNull(),
    toMasked: text('to_masked'),
    status: text('status').notNull(), // sent | delivered | failed
    detail: text('detail'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.messageId] })],
);

/** Typed view of migration 1276: admins' wording of the customer e-mails and SMS per language (issue 44, templates.ts). */
export const messageTemplates = pgTable(
  'message_templates',
  {
    key: text('key').notNull(),
    language: text('language').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    updatedBy: uuid('updated_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.language] })],
);
