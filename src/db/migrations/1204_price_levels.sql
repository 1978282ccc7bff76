-- Price levels (issue 45): the levels a customer buys at, owned by vtu. The owner names and orders them (rank: 0 is
-- the default level everyone starts at); upgrade_fee (kobo) is what a customer pays from the wallet to reach a level,
-- NULL when it is only granted by an operator.
CREATE TABLE vtu_price_levels (
  id text PRIMARY KEY,
  name text NOT NULL,
  rank int NOT NULL UNIQUE,
  upgrade_fee bigint CHECK (upgrade_fee IS NULL OR upgrade_fee > 0),
  updated_by uuid,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO vtu_price_levels (id, name, rank, upgrade_fee) VALUES
  ('customer', 'Customer', 0, NULL),
  ('agent', 'Agent', 1, 200000),
  ('reseller', 'Reseller', 2, 1000000),
  ('api_partner', 'API partner', 3, NULL);

-- A level's price of a service (plan '') or of one plan (its provider-independent key): a markup over wholesale
-- (flat kobo, or percent in basis points rounded up) or a fixed price (kobo, plans only, never below wholesale).
CREATE TABLE vtu_level_prices (
  level text NOT NULL REFERENCES vtu_price_levels (id),
  service text NOT NULL,
  plan text NOT NULL DEFAULT '',
  kind text NOT NULL CHECK (kind IN ('flat', 'percent', 'fixed')),
  value bigint NOT NULL CHECK (value >= 0),
  updated_by uuid,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (level, service, plan),
  CHECK (kind <> 'fixed' OR plan <> '')
);

-- Plans switched off by an operator: not listed, not quoted, not sold.
CREATE TABLE vtu_disabled_plans (
  service text NOT NULL,
  plan text NOT NULL,
  disabled_by uuid,
  disabled_at timestamptz NOT NULL,
  PRIMARY KEY (service, plan)
);

-- A customer's level (no row: the rank-0 level), how it was reached (an upgrade fee paid, or an operator's grant).
CREATE TABLE vtu_customer_levels (
  user_id uuid PRIMARY KEY,
  level text NOT NULL REFERENCES vtu_price_levels (id),
  source text NOT NULL CHECK (source IN ('upgrade', 'grant')),
  reference text,
  updated_at timestamptz NOT NULL
);

-- Every purchase records the level it was sold at (its price is `amount`).
ALTER TABLE vtu_transactions ADD COLUMN price_level text NOT NULL DEFAULT 'customer';
