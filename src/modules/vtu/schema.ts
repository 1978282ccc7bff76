import { bigint, boolean, index, integer, jsonb, pgTable, pgView, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Typed view of migration 0400_vtu.sql (the SQL file is the source of truth). */
export const vtuTransactions = pgTable(
  'vtu_transactions',
  {
    id: uuid('id').primaryKey(),
    reference: text('reference').notNull().unique(),
    requestId: text('request_id').notNull().unique(),
    userId: uuid('user_id').notNull(),
    service: text('service').notNull(),
    status: text('status').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    wholesale: bigint('wholesale', { mode: 'bigint' }).notNull(),
    markup: bigint('markup', { mode: 'bigint' }).notNull(),
    recipient: text('recipient').notNull(),
    network: text('network'),
    planId: text('plan_id'),
    product: text('product'),
    meterType: text('meter_type'),
    quantity: integer('quantity'),
    phone: text('phone'),
    profileId: text('profile_id'),
    provider: text('provider').notNull(),
    providersTried: text('providers_tried').array().notNull(),
    ported: boolean('ported').notNull().default(false),
    /** Where the purchase was made (migration 1100): app (the web app and the API), ussd or whatsapp. */
    channel: text('channel').notNull().default('app'),
    /** The price level it was sold at (migration 1204); its price is `amount`. */
    priceLevel: text('price_level').notNull().default('customer'),
    /** The API key it was made with (migration 1250); null in a session, by USSD or by WhatsApp. */
    apiKey: text('api_key'),
    details: jsonb('details'),
    /** A kind's own inputs (kinds added after the first six; migration 0401): NULL for the first six. */
    inputs: jsonb('inputs'),
    failureReason: text('failure_reason'),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    requeryCount: integer('requery_count').notNull().default(0),
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    lastProviderStatus: text('last_provider_status'),
    stuckAt: timestamp('stuck_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('vtu_transactions_user_idx').on(t.userId, t.createdAt, t.id)],
);

export const vtuMarkups = pgTable(
  'vtu_markups',
  {
    service: text('service').notNull(),
    provider: text('provider').notNull().default(''),
    kind: text('kind').notNull(),
    value: bigint('value', { mode: 'bigint' }).notNull(),
    updatedBy: uuid('updated_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.service, t.provider] })],
);

export const vtuCatalogueCache = pgTable('vtu_catalogue_cache', {
  key: text('key').primaryKey(),
  payload: jsonb('payload').notNull(),
  fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

export const sandboxVtuOrders = pgTable(
  'sandbox_vtu_orders',
  {
    provider: text('provider').notNull(),
    requestId: text('request_id').notNull(),
    service: text('service').notNull(),
    recipient: text('recipient').notNull(),
    product: text('product'),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    status: text('status').notNull(),
    finalStatus: text('final_status'),
    resolveAt: timestamp('resolve_at', { withTimezone: true }),
    result: jsonb('result'),
    message: text('message'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.provider, t.requestId] })],
);

export const sandboxVtuFundings = pgTable(
  'sandbox_vtu_fundings',
  {
    provider: text('provider').notNull(),
    reference: text('reference').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.reference] })],
);

export const sandboxVtuFloats = pgTable('sandbox_vtu_floats', {
  provider: text('provider').primaryKey(),
  balance: bigint('balance', { mode: 'bigint' }).notNull(),
});

/**
 * The purchase facts vtu publishes for other modules to read (migration 1103): a view over vtu_transactions, so its
 * readers' SQL stays in one statement while the table itself is read only inside vtu/ (npm run lint:tables).
 */
export const vtuPurchaseFacts = pgView('vtu_purchase_facts', {
  id: uuid('id'),
  userId: uuid('user_id'),
  service: text('service'),
  recipient: text('recipient'),
  status: text('status'),
}).existing();

/** Price levels (migration 1204, issue 45): named and ordered by the owner; rank 0 is everyone's default. */
export const vtuPriceLevels = pgTable('vtu_price_levels', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  rank: integer('rank').notNull().unique(),
  upgradeFee: bigint('upgrade_fee', { mode: 'bigint' }),
  /** Whether the level's customers may create live API keys (migration 1251). */
  apiKeys: boolean('api_keys').notNull().default(false),
  updatedBy: uuid('updated_by'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A level's price of a service (plan '') or of one plan: flat or percent markup over wholesale, or a fixed price. */
export const vtuLevelPrices = pgTable(
  'vtu_level_prices',
  {
    level: text('level')
      .notNull()
      .references(() => vtuPriceLevels.id),
    service: text('service').notNull(),
    plan: text('plan').notNull().default(''),
    kind: text('kind').notNull(),
    value: bigint('value', { mode: 'bigint' }).notNull(),
    updatedBy: uuid('updated_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.level, t.service, t.plan] })],
);

/** Plans an operator switched off: not listed, quoted or sold. */
export const vtuDisabledPlans = pgTable(
  'vtu_disabled_plans',
  {
    service: text('service').notNull(),
    plan: text('plan').notNull(),
    disabledBy: uuid('disabled_by'),
    disabledAt: timestamp('disabled_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.service, t.plan] })],
);

/** A customer's level (no row: the rank-0 level) and how it was reached. */
export const vtuCustomerLevels = pgTable('vtu_customer_levels', {
  userId: uuid('user_id').primaryKey(),
  level: text('level')
    .notNull()
    .references(() => vtuPriceLevels.id),
  source: text('source').notNull(),
  reference: text('reference'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** Provider routing an operator set (migration 1300): a kind's providers in order, for the kind (network '') or one network. */
export const vtuRouting = pgTable(
  'vtu_routing',
  {
    service: text('service').notNull(),
    network: text('network').notNull().default(''),
    providers: text('providers').array().notNull(),
    updatedBy: uuid('updated_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.service, t.network] })],
);
