-- Customers' passkeys (issue 43): the operators' passkey table becomes everyone's, one table for one WebAuthn stack.
ALTER TABLE operator_passkeys RENAME TO passkeys;
ALTER INDEX operator_passkeys_pkey RENAME TO passkeys_pkey;
ALTER INDEX operator_passkeys_credential_key RENAME TO passkeys_credential_key;
ALTER INDEX operator_passkeys_user_idx RENAME TO passkeys_user_idx;
ALTER TABLE passkeys RENAME CONSTRAINT operator_passkeys_user_id_fkey TO passkeys_user_id_fkey;

-- A passwordless sign-in's challenge belongs to nobody yet (user_id NULL); a payment's is bound to the one request it
-- authorises (binding: a digest of the operation and its input, passkey-payments.ts).
ALTER TABLE webauthn_challenges ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE webauthn_challenges ADD COLUMN binding text;
ALTER TABLE webauthn_challenges DROP CONSTRAINT webauthn_challenges_purpose_check;
ALTER TABLE webauthn_challenges ADD CONSTRAINT webauthn_challenges_purpose_check
  CHECK (purpose IN ('register', 'stepup', 'signin', 'payment'));

-- Whether the customer confirms payments with a passkey instead of the transaction PIN (off until they choose it).
CREATE TABLE passkey_settings (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  payments boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL
);
