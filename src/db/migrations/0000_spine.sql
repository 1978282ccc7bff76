-- Spine: identity, ledger, jobs, idempotency, audit, sandbox capture.
CREATE TABLE users (
  id uuid PRIMARY KEY,
  email text NOT NULL,
  username text,
  full_name text,
  phone text,
  phone_verified_at timestamptz,
  status text NOT NULL DEFAULT 'active',
  kyc_tier smallint NOT NULL DEFAULT 0,
  signup_referral_code text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX users_email_key ON users (email);
CREATE UNIQUE INDEX users_username_key ON users (username);

CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id),
  status text NOT NULL DEFAULT 'active',
  method text NOT NULL,
  device_id text,
  user_agent text,
  ip text,
  claimed_at timestamptz,
  heartbeat_at timestamptz,
  revoked_reason text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE refresh_tokens (
  token_hash text PRIMARY KEY,
  session_id uuid NOT NULL REFERENCES sessions(id),
  used_at timestamptz,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX refresh_tokens_session_idx ON refresh_tokens (session_id);

CREATE TABLE otp_codes (
  id bigserial PRIMARY KEY,
  purpose text NOT NULL,
  identifier text NOT NULL,
  code_hash text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  consumed_at timestamptz,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX otp_codes_lookup_idx ON otp_codes (purpose, identifier, created_at);

CREATE TABLE user_pins (
  user_id uuid NOT NULL REFERENCES users(id),
  kind text NOT NULL,
  hash text NOT NULL,
  salt text NOT NULL,
  failed_attempts integer NOT NULL DEFAULT 0,
  lock_count integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  enabled boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, kind)
);

CREATE TABLE accounts (
  id bigserial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  kind text NOT NULL,
  user_id uuid,
  materialised boolean NOT NULL,
  allow_negative boolean NOT NULL,
  balance bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  CONSTRAINT accounts_non_negative CHECK (allow_negative OR balance >= 0)
);
CREATE INDEX accounts_user_idx ON accounts (user_id);

CREATE TABLE ledger_transactions (
  id bigserial PRIMARY KEY,
  reference text NOT NULL UNIQUE,
  type text NOT NULL,
  description text NOT NULL,
  metadata jsonb,
  created_at timestamptz NOT NULL
);

CREATE TABLE ledger_entries (
  id bigserial PRIMARY KEY,
  transaction_id bigint NOT NULL REFERENCES ledger_transactions(id),
  account_id bigint NOT NULL REFERENCES accounts(id),
  amount bigint NOT NULL CHECK (amount <> 0),
  balance_after bigint,
  created_at timestamptz NOT NULL
);
CREATE INDEX ledger_entries_account_idx ON ledger_entries (account_id, id);
CREATE INDEX ledger_entries_tx_idx ON ledger_entries (transaction_id);

CREATE TABLE jobs (
  id bigserial PRIMARY KEY,
  queue text NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL DEFAULT 'queued',
  run_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 5,
  singleton_key text UNIQUE,
  locked_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX jobs_due_idx ON jobs (status, run_at);

CREATE TABLE idempotency_keys (
  user_id uuid NOT NULL,
  key text NOT NULL,
  operation text NOT NULL,
  request_hash text NOT NULL,
  status text NOT NULL,
  response_status integer,
  response_body jsonb,
  created_at timestamptz NOT NULL,
  locked_until timestamptz NOT NULL,
  PRIMARY KEY (user_id, key)
);

CREATE TABLE audit_log (
  id uuid PRIMARY KEY,
  actor_id uuid,
  action text NOT NULL,
  subject_type text NOT NULL,
  subject_id text NOT NULL,
  details jsonb,
  created_at timestamptz NOT NULL
);
CREATE INDEX audit_log_subject_idx ON audit_log (subject_type, subject_id);

CREATE TABLE sandbox_messages (
  id bigserial PRIMARY KEY,
  channel text NOT NULL,
  "to" text NOT NULL,
  subject text,
  text text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX sandbox_messages_to_idx ON sandbox_messages (channel, "to", id);
