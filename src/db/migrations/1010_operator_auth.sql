-- Operator second factor and sessions (issue 30).
-- last_seen_at: the last request or refresh of a session; an operator's session ends after OPERATOR_IDLE_MINUTES
-- without one (identity's operator-idle.ts). NULL for sessions opened before this migration: created_at stands in.
ALTER TABLE sessions ADD COLUMN last_seen_at timestamptz;

-- Operators' passkeys (WebAuthn credentials): the credential's ID and COSE public key as the authenticator gave them
-- (base64url), its signature counter (a counter that does not grow is a cloned authenticator or a replay) and
-- transports. A passkey is a second factor of an operator: it satisfies OPERATOR_2FA and yields step-up grants.
CREATE TABLE operator_passkeys (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  credential_id text NOT NULL,
  public_key text NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports jsonb NOT NULL DEFAULT '[]',
  name text NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz
);
CREATE UNIQUE INDEX operator_passkeys_credential_key ON operator_passkeys (credential_id);
CREATE INDEX operator_passkeys_user_idx ON operator_passkeys (user_id);

-- WebAuthn challenges, kept server-side: one use each, bound to the user and session that asked, with an expiry.
CREATE TABLE webauthn_challenges (
  challenge text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  session_id uuid,
  purpose text NOT NULL CHECK (purpose IN ('register', 'stepup')),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX webauthn_challenges_user_idx ON webauthn_challenges (user_id, purpose);
CREATE INDEX webauthn_challenges_expires_idx ON webauthn_challenges (expires_at);
