-- Issue 43: two-factor recovery codes. Ten one-use codes per account, made when the authenticator is confirmed and
-- again on request (the old set is deleted); each stored as a keyed hash (HMAC under PIN_PEPPER), never the code.
-- A code passes the sign-in's second step in place of the authenticator's code once (used_at).
CREATE TABLE recovery_codes (
  id text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id),
  code_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX recovery_codes_user_idx ON recovery_codes (user_id);
