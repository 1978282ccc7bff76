-- Wallet and payments (issue 5): top-up intents, processor events, settlements, dedicated virtual accounts,
-- operator flags, and the sandbox payment processor's own state.

CREATE TABLE topup_intents (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id),
  reference text NOT NULL UNIQUE,
  processor text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  status text NOT NULL DEFAULT 'pending', -- pending | success | failed | abandoned
  origin text NOT NULL, -- intent (createTopupIntent) | api (startProcessorTopup)
  email text NOT NULL,
  callback_url text,
  checkout_url text,
  access_code text,
  amount_paid bigint,
  channel text,
  paid_at timestamptz,
  settled_at timestamptz,
  failure_reason text,
  last_checked_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX topup_intents_user_idx ON topup_intents (user_id, created_at DESC);
CREATE INDEX topup_intents_open_idx ON topup_intents (status, created_at);

-- Each signed webhook body is stored once (payload_hash); repeated deliveries only count.
CREATE TABLE processor_events (
  id uuid PRIMARY KEY,
  processor text NOT NULL,
  payload_hash text NOT NULL UNIQUE,
  event text NOT NULL,
  reference text,
  payload jsonb NOT NULL,
  status text NOT NULL DEFAULT 'received', -- received | credited | duplicate | ignored | unmatched | failed
  outcome text,
  deliveries integer NOT NULL DEFAULT 1,
  received_at timestamptz NOT NULL,
  last_received_at timestamptz NOT NULL,
  processed_at timestamptz
);
CREATE INDEX processor_events_reference_idx ON processor_events (processor, reference);
CREATE INDEX processor_events_status_idx ON processor_events (status, received_at);

-- One row per money-in at the processor. The unique (processor, processor_reference) and the ledger's unique
-- reference payin:<processor>:<reference> both make a second credit impossible.
CREATE TABLE payment_settlements (
  id uuid PRIMARY KEY,
  processor text NOT NULL,
  processor_reference text NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id),
  intent_id uuid REFERENCES topup_intents(id),
  kind text NOT NULL, -- topup | dva
  amount bigint NOT NULL CHECK (amount > 0),
  channel text,
  source text NOT NULL, -- webhook | verify | reconciliation
  ledger_reference text NOT NULL UNIQUE,
  over_cap boolean NOT NULL DEFAULT false,
  paid_at timestamptz,
  created_at timestamptz NOT NULL,
  UNIQUE (processor, processor_reference)
);
CREATE INDEX payment_settlements_user_idx ON payment_settlements (user_id, created_at DESC);

CREATE TABLE dedicated_accounts (
  user_id uuid PRIMARY KEY REFERENCES users(id),
  processor text NOT NULL,
  customer_code text NOT NULL,
  account_number text NOT NULL,
  account_name text NOT NULL,
  bank_name text NOT NULL,
  provider_id text,
  created_at timestamptz NOT NULL,
  UNIQUE (processor, account_number)
);
CREATE INDEX dedicated_accounts_customer_idx ON dedicated_accounts (processor, customer_code);

-- Wallets an operator must look at (a credit that passed the tier's balance cap).
CREATE TABLE wallet_flags (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id),
  kind text NOT NULL,
  reference text NOT NULL,
  details jsonb,
  created_at timestamptz NOT NULL,
  resolved_at timestamptz,
  UNIQUE (kind, reference)
);
CREATE INDEX wallet_flags_open_idx ON wallet_flags (user_id) WHERE resolved_at IS NULL;

-- Sandbox payment processor (src/sandbox/processor-simulator.ts). Kept in the database so every instance
-- sees the same checkout state.
CREATE TABLE sandbox_processor_transactions (
  reference text PRIMARY KEY,
  access_code text NOT NULL UNIQUE,
  email text NOT NULL,
  amount bigint NOT NULL,
  amount_paid bigint,
  currency text NOT NULL DEFAULT 'NGN',
  status text NOT NULL, -- pending | success | failed | abandoned
  channel text NOT NULL DEFAULT 'card',
  callback_url text,
  metadata jsonb,
  customer_code text,
  receiver_account_number text,
  paid_at timestamptz,
  created_at timestamptz NOT NULL
);

CREATE TABLE sandbox_processor_customers (
  customer_code text PRIMARY KEY,
  email text NOT NULL UNIQUE,
  first_name text,
  last_name text,
  phone text,
  created_at timestamptz NOT NULL
);

CREATE TABLE sandbox_processor_accounts (
  account_number text PRIMARY KEY,
  customer_code text NOT NULL UNIQUE,
  account_name text NOT NULL,
  bank_name text NOT NULL,
  created_at timestamptz NOT NULL
);
