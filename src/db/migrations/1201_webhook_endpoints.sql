-- Signed outbound webhooks (issue 45): a customer's endpoints and every delivery to them. The endpoint's signing secret
-- is kept encrypted (DATA_ENCRYPTION_KEY): it must be read back to sign each delivery.
CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  user_id uuid NOT NULL,
  url text NOT NULL,
  events text[] NOT NULL,
  secret_encrypted text NOT NULL,
  status text NOT NULL CHECK (status IN ('active', 'disabled')),
  disabled_reason text,
  created_at timestamptz NOT NULL,
  disabled_at timestamptz
);
CREATE INDEX webhook_endpoints_user_idx ON webhook_endpoints (user_id) WHERE status = 'active';

CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id text NOT NULL,
  event_type text NOT NULL,
  body text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts int NOT NULL DEFAULT 0,
  response_status int,
  response_ms int,
  error text,
  created_at timestamptz NOT NULL,
  last_attempt_at timestamptz,
  UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC);
