-- Known devices (issue #28): a browser or app that has signed in to an account holds a device token (an HttpOnly
-- cookie). Its guesses at that account's codes and PINs spend its own attempt budget, never the budget that
-- unrecognised sources share. Only the token's SHA-256 is stored; a row ends with its account.
CREATE TABLE known_devices (
  id text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX known_devices_token_key ON known_devices (token_hash);
CREATE INDEX known_devices_user_idx ON known_devices (user_id);
