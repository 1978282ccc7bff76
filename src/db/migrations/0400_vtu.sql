-- VTU: purchases, markups, catalogue cache (docs/design.md §7) and the sandbox provider simulators' state (docs/design.md §8).
CREATE TABLE vtu_transactions (
  id uuid PRIMARY KEY,
  reference text NOT NULL UNIQUE,
  -- Sent to the provider on the purchase and on every requery; never replaced (no re-send under a new id).
  request_id text NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES users(id),
  service text NOT NULL,
  status text NOT NULL CHECK (status IN ('processing', 'success', 'failed')),
  amount bigint NOT NULL CHECK (amount > 0),
  wholesale bigint NOT NULL CHECK (wholesale > 0),
  markup bigint NOT NULL,
  recipient text NOT NULL,
  network text,
  plan_id text,
  product text,
  meter_type text,
  quantity integer,
  phone text,
  profile_id text,
  provider text NOT NULL,
  providers_tried text[] NOT NULL,
  ported boolean NOT NULL DEFAULT false,
  details jsonb,
  failure_reason text,
  -- When the current provider was first called (or switched to): "not found" answers are trusted only after a grace period from here.
  sent_at timestamptz NOT NULL,
  requery_count integer NOT NULL DEFAULT 0,
  next_check_at timestamptz,
  last_checked_at timestamptz,
  last_provider_status text,
  stuck_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX vtu_transactions_user_idx ON vtu_transactions (user_id, created_at DESC, id DESC);
CREATE INDEX vtu_transactions_due_idx ON vtu_transactions (next_check_at) WHERE status = 'processing';

-- Markups per service and optionally per provider ('' = any provider); flat in kobo or percent in basis points.
CREATE TABLE vtu_markups (
  service text NOT NULL,
  provider text NOT NULL DEFAULT '',
  kind text NOT NULL CHECK (kind IN ('flat', 'percent')),
  value bigint NOT NULL CHECK (value >= 0),
  updated_by uuid,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (service, provider)
);
INSERT INTO vtu_markups (service, provider, kind, value, updated_at) VALUES
  ('airtime', '', 'flat', 0, now()),
  ('data', '', 'percent', 500, now()),
  ('cable', '', 'flat', 10000, now()),
  ('electricity', '', 'flat', 10000, now()),
  ('betting', '', 'flat', 0, now()),
  ('exam', '', 'flat', 10000, now());

-- Provider catalogues cached across instances; expiry on the service clock (spec rule 7: at most 30 minutes).
CREATE TABLE vtu_catalogue_cache (
  key text PRIMARY KEY,
  payload jsonb NOT NULL,
  fetched_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);

-- Sandbox simulators (mounted only in sandbox mode): each provider's float and its record of orders.
CREATE TABLE sandbox_vtu_floats (
  provider text PRIMARY KEY,
  balance bigint NOT NULL CHECK (balance >= 0)
);
CREATE TABLE sandbox_vtu_orders (
  provider text NOT NULL,
  request_id text NOT NULL,
  service text NOT NULL,
  recipient text NOT NULL,
  product text,
  amount bigint NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  final_status text,
  resolve_at timestamptz,
  result jsonb,
  message text,
  created_at timestamptz NOT NULL,
  delivered_at timestamptz,
  PRIMARY KEY (provider, request_id)
);
CREATE TABLE sandbox_vtu_fundings (
  provider text NOT NULL,
  reference text NOT NULL,
  amount bigint NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (provider, reference)
);
