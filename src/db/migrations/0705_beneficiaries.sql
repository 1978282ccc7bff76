-- Saved beneficiaries (issue 29): the numbers, smartcards, meters, betting accounts and wallet users a customer
-- buys for or sends to again. One row per (user, kind, provider, recipient): saving the same one again updates its
-- label instead of adding a second row. The per-customer cap is counted under the user's row lock (service).
CREATE TABLE beneficiaries (
  id uuid PRIMARY KEY,
  seq bigserial NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id),
  kind text NOT NULL CHECK (kind IN ('phone', 'smartcard', 'meter', 'betting', 'wallet')),
  label text NOT NULL,
  recipient text NOT NULL,
  provider text,
  meter_type text CHECK (meter_type IN ('prepaid', 'postpaid')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CONSTRAINT beneficiaries_recipient_key UNIQUE NULLS NOT DISTINCT (user_id, kind, provider, recipient)
);
CREATE INDEX beneficiaries_user_idx ON beneficiaries (user_id, seq);
