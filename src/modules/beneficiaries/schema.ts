import { bigserial, index, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';

/** Typed view of migration 0705 (saved beneficiaries). */
export const beneficiaries = pgTable(
  'beneficiaries',
  {
    id: uuid('id').primaryKey(),
    seq: bigserial('seq', { mode: 'bigint' }).notNull(),
    userId: uuid('user_id').notNull(),
    kind: text('kind').notNull(), // phone | smartcard | meter | betting | wallet
    label: text('label').notNull(),
    recipient: text('recipient').notNull(),
    provider: text('provider'), // network, cable provider, disco or betting company; null for wallet users
    meterType: text('meter_type'), // prepaid | postpaid, meters only
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    unique('beneficiaries_recipient_key').on(t.userId, t.kind, t.provider, t.recipient).nullsNotDistinct(),
    index('beneficiaries_user_idx').on(t.userId, t.seq),
  ],
);
