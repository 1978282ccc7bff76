-- Signed receipts (issue 9): one per caller and ledger transaction; the needle is the public lookup key.
CREATE TABLE receipts (
  id uuid PRIMARY KEY,
  needle text NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES users(id),
  reference text NOT NULL,
  payload jsonb NOT NULL,
  signature text NOT NULL,
  key_id text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX receipts_user_reference_key ON receipts (user_id, reference);
