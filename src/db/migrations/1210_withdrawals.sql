-- Issue 43: money out to a bank account through the processor's transfer API. The wallet is debited (amount + fee)
-- into the payouts clearing account with the row's insert, in one posting; the row then moves once, by a guarded
-- UPDATE, from pending to success (settled), failed (refunded) or, from success, reversed (refunded).
CREATE TABLE withdrawals (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id),
  reference text NOT NULL UNIQUE,
  processor text NOT NULL,
  bank_code text NOT NULL,
  bank_name text NOT NULL,
  account_number text NOT NULL,
  account_name text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  fee bigint NOT NULL CHECK (fee >= 0),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'success', 'failed', 'reversed')),
  transfer_code text,
  failure_reason text,
  polls integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  settled_at timestamptz
);
CREATE INDEX withdrawals_user_idx ON withdrawals (user_id, created_at);
CREATE INDEX withdrawals_pending_idx ON withdrawals (created_at) WHERE status = 'pending';

-- The sandbox processor's transfers (src/sandbox/processor-simulator-transfers.ts): one per reference.
CREATE TABLE sandbox_processor_transfers (
  reference text PRIMARY KEY,
  transfer_code text NOT NULL UNIQUE,
  recipient_code text NOT NULL,
  bank_code text NOT NULL,
  account_number text NOT NULL,
  account_name text NOT NULL,
  amount bigint NOT NULL,
  status text NOT NULL, -- pending | success | failed | reversed
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
