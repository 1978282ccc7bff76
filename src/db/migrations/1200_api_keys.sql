-- API keys (issue 45): a customer's keys for calling the operations without a session. The secret is stored as its
-- SHA-256 (it is 32 random bytes, so no pepper is needed), shown once; `prefix` is what lists show of it.
CREATE TABLE api_keys (
  id text PRIMARY KEY,
  user_id uuid NOT NULL,
  name text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  prefix text NOT NULL,
  secret_hash text NOT NULL UNIQUE,
  scopes text[] NOT NULL,
  allowed_ips text[],
  daily_limit bigint CHECK (daily_limit IS NULL OR daily_limit > 0),
  spent_day date,
  spent_today bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz,
  expires_at timestamptz,
  revoked_at timestamptz,
  rolled_from text
);
CREATE INDEX api_keys_user_idx ON api_keys (user_id, created_at);
