-- Security (issue 3): TOTP factors, step-up grants, login events, phone verifications.
CREATE TABLE totp_factors (
  user_id uuid PRIMARY KEY REFERENCES users(id),
  secret_enc text NOT NULL,
  confirmed_at timestamptz,
  last_step bigint,
  failed_attempts integer NOT NULL DEFAULT 0,
  lock_count integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE stepup_grants (
  id uuid PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES users(id),
  session_id uuid,
  method text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX stepup_grants_user_idx ON stepup_grants (user_id);

CREATE TABLE login_events (
  id uuid PRIMARY KEY,
  user_id uuid REFERENCES users(id),
  kind text NOT NULL,
  source text NOT NULL,
  method text,
  device text,
  session_id uuid,
  ip text,
  user_agent text,
  identifier_hash text,
  reason text,
  created_at timestamptz NOT NULL
);
CREATE INDEX login_events_user_idx ON login_events (user_id, kind, created_at);
CREATE INDEX login_events_identifier_idx ON login_events (identifier_hash, kind, created_at);
CREATE UNIQUE INDEX login_events_session_login_key ON login_events (session_id) WHERE kind = 'login';

CREATE TABLE phone_verifications (
  id bigserial PRIMARY KEY,
  phone text NOT NULL,
  user_id uuid REFERENCES users(id),
  verified_at timestamptz NOT NULL
);
CREATE INDEX phone_verifications_phone_idx ON phone_verifications (phone, verified_at);
