-- Issue #22, findings 2 and 3: attempt limits that hold under concurrency, and sign-in that an attacker cannot
-- take from the owner.

-- PINs are compared inside the statement that counts the failure (src/modules/identity/pins.ts). Rows from before
-- this column get it on their next successful check.
ALTER TABLE user_pins ADD COLUMN check_mac text;

-- One-time codes remember who asked for them (the requester's IP), for per-requester send caps.
ALTER TABLE otp_codes ADD COLUMN requester text;


-- Wrong guesses at one code, per requester: one requester's guesses cannot burn the code for everyone else.
CREATE TABLE otp_guesses (
  code_id bigint NOT NULL REFERENCES otp_codes(id) ON DELETE CASCADE,
  requester text NOT NULL,
  wrong integer NOT NULL,
  PRIMARY KEY (code_id, requester)
);

-- Generic attempt counters (per IP and identifier, unknown identifiers): reserved before the check by one
-- conditional upsert, so parallel requests cannot pass the limit.
CREATE TABLE attempt_limits (
  key text PRIMARY KEY,
  failures integer NOT NULL DEFAULT 0,
  lock_count integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  updated_at timestamptz NOT NULL
);

-- Issue #22, finding 1: every credential change is told to the owner with a one-time "this wasn't me" link.
CREATE TABLE credential_notices (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id),
  token_hash text NOT NULL UNIQUE,
  change text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX credential_notices_user_idx ON credential_notices (user_id, created_at);

-- The owner's two-factor reset: asked with an e-mailed code, done after a waiting period unless cancelled.
CREATE TABLE two_factor_resets (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id),
  requested_at timestamptz NOT NULL,
  effective_at timestamptz NOT NULL,
  cancelled_at timestamptz,
  completed_at timestamptz
);
CREATE UNIQUE INDEX two_factor_resets_open_key ON two_factor_resets (user_id) WHERE cancelled_at IS NULL AND completed_at IS NULL;
