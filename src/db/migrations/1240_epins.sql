-- Recharge card printing (issue 45, modules/epins): a reseller's batches of airtime e-PINs and their cards. A batch is
-- paid from the wallet in one posting (reference `epin:<id>`); what the seller did not deliver is refunded once
-- (reference `epin_refund:<id>`). Amounts are kobo. PINs are kept encrypted (DATA_ENCRYPTION_KEY, AES-256-GCM).
CREATE TABLE epin_batches (
  id text PRIMARY KEY,
  user_id uuid NOT NULL,
  network text NOT NULL CHECK (network IN ('mtn', 'airtel', 'glo', '9mobile')),
  denomination bigint NOT NULL CHECK (denomination > 0),
  quantity int NOT NULL CHECK (quantity BETWEEN 1 AND 1000),
  unit_price bigint NOT NULL CHECK (unit_price > 0),
  unit_wholesale bigint NOT NULL CHECK (unit_wholesale > 0 AND unit_wholesale <= unit_price),
  amount bigint NOT NULL CHECK (amount > 0),
  price_level text NOT NULL,
  business_name text NOT NULL,
  status text NOT NULL CHECK (status IN ('processing', 'delivered', 'partial', 'failed')),
  delivered int NOT NULL DEFAULT 0 CHECK (delivered BETWEEN 0 AND quantity),
  refunded bigint NOT NULL DEFAULT 0 CHECK (refunded >= 0 AND refunded <= amount),
  failure_reason text,
  created_at timestamptz NOT NULL,
  settled_at timestamptz
);
CREATE INDEX epin_batches_user_idx ON epin_batches (user_id, created_at DESC);
CREATE INDEX epin_batches_processing_idx ON epin_batches (created_at) WHERE status = 'processing';

CREATE TABLE epin_cards (
  batch_id text NOT NULL REFERENCES epin_batches (id),
  seq int NOT NULL,
  pin_encrypted text NOT NULL,
  serial text NOT NULL,
  sold_at timestamptz,
  PRIMARY KEY (batch_id, seq)
);

-- Who may buy e-PINs and at what price (docs/decisions.md "Recharge cards are sold to levels with an e-PIN price"): a
-- level with a row here buys a card at its face value less `discount` (basis points), never below the seller's price;
-- a level without one (Customer, as seeded) may not buy.
CREATE TABLE epin_level_prices (
  level text PRIMARY KEY REFERENCES vtu_price_levels (id),
  discount int NOT NULL CHECK (discount BETWEEN 0 AND 5000),
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO epin_level_prices (level, discount) VALUES ('agent', 100), ('reseller', 200), ('api_partner', 250);
