import { bigint, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Typed view of migration 1203 (the WhatsApp assistant's links, codes, inbound ids, conversations, PIN links, rate). */
export const whatsappLinks = pgTable('whatsapp_links', {
  phone: text('phone').primaryKey(),
  userId: uuid('user_id').notNull().unique(),
  linkedAt: timestamp('linked_at', { withTimezone: true }).notNull(),
});

export const whatsappLinkCodes = pgTable(
  'whatsapp_link_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    userId: uuid('user_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('whatsapp_link_codes_user_idx').on(t.userId)],
);

export const whatsappInbound = pgTable(
  'whatsapp_inbound',
  {
    messageId: text('message_id').primaryKey(),
    phone: text('phone').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('whatsapp_inbound_received_idx').on(t.receivedAt)],
);

export const whatsappConversations = pgTable('whatsapp_conversations', {
  phone: text('phone').primaryKey(),
  state: jsonb('state').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

export const whatsappPinRequests = pgTable(
  'whatsapp_pin_requests',
  {
    tokenHash: text('token_hash').primaryKey(),
    phone: text('phone').notNull(),
    userId: uuid('user_id').notNull(),
    action: jsonb('action').notNull(),
    summary: text('summary').notNull(),
    amountKobo: bigint('amount_kobo', { mode: 'number' }).notNull(),
    language: text('language').notNull(),
    state: text('state').notNull(),
    result: text('result'),
    transactionId: uuid('transaction_id'),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('whatsapp_pin_requests_created_idx').on(t.createdAt)],
);

export const whatsappRate = pgTable('whatsapp_rate', {
  phone: text('phone').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  hits: integer('hits').notNull(),
});
