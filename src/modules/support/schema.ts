import { bigserial, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/** Typed view of migration 0701 (support threads). */
export const supportThreads = pgTable(
  'support_threads',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    status: text('status').notNull(), // open | closed
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
    lastAuthor: text('last_author'), // user | operator
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: uuid('closed_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('support_threads_one_open')
      .on(t.userId)
      .where(sql`status = 'open'`),
    index('support_threads_user_idx').on(t.userId, t.createdAt),
    index('support_threads_status_idx').on(t.status, t.lastMessageAt),
  ],
);

export const supportMessages = pgTable(
  'support_messages',
  {
    id: uuid('id').primaryKey(),
    seq: bigserial('seq', { mode: 'bigint' }).notNull(),
    threadId: uuid('thread_id').notNull(),
    authorId: uuid('author_id').notNull(),
    authorRole: text('author_role').notNull(), // user | operator
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('support_messages_thread_idx').on(t.threadId, t.seq)],
);

/** Typed view of migration 1206 (saved replies; titles unique regardless of case). */
export const supportCannedReplies = pgTable(
  'support_canned_replies',
  {
    id: uuid('id').primaryKey(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    updatedBy: uuid('updated_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('support_canned_replies_title').on(sql`lower(${t.title})`)],
);
