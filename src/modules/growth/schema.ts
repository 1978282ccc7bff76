import { date, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { kobo, ts } from '../../db/columns.js';

// Typed view of migration 0600 (growth, savings locks, loans). Queries use raw SQL; these keep the schema typed.

export const growthSettings = pgTable('growth_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedBy: uuid('updated_by'),
  updatedAt: ts('updated_at').notNull(),
});

export const referralCodes = pgTable('referral_codes', {
  userId: uuid('user_id').primaryKey(),
  code: text('code').notNull().unique(),
  createdAt: ts('created_at').notNull(),
});

export const referrals = pgTable(
  'referrals',
  {
    inviteeId: uuid('invitee_id').primaryKey(),
    referrerId: uuid('referrer_id').notNull(),
    code: text('code').notNull(),
    status: text('status').notNull().default('pending'),
    rewardKobo: kobo('reward_kobo').notNull().default(0n),
    qualifiedAt: ts('qualified_at'),
    qualifiedDay: date('qualified_day'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('referrals_referrer_idx').on(t.referrerId, t.createdAt)],
);

export const referralMilestones = pgTable(
  'referral_milestones',
  {
    userId: uuid('user_id').notNull(),
    threshold: integer('threshold').notNull(),
    bonusKobo: kobo('bonus_kobo').notNull(),
    reachedAt: ts('reached_at').notNull(),
    acknowledgedAt: ts('acknowledged_at'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.threshold] })],
);

export const growthPurchases = pgTable(
  'growth_purchases',
  {
    transactionId: text('transaction_id').primaryKey(),
    userId: uuid('user_id').notNull(),
    amountKobo: kobo('amount_kobo').notNull(),
    service: text('service').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('growth_purchases_user_idx').on(t.userId, t.createdAt)],
);

export const checkins = pgTable(
  'checkins',
  {
    userId: uuid('user_id').notNull(),
    day: date('day').notNull(),
    streak: integer('streak').notNull(),
    rewardKobo: kobo('reward_kobo').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);
