-- Airtime-to-cash (issue 32): an inbound flow on provider C. A request tells the customer where and how to send
-- airtime; the wallet is credited only when the provider confirms what it received (webhook or requery), once per
-- request (ledger reference airtime_cash:<request_id>). Unconfirmed requests expire with nothing credited.
CREATE TABLE airtime_cash_requests (
  id uuid PRIMARY KEY,
  reference text NOT NULL UNIQUE,
  request_id text NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES users (id),
  provider text NOT NULL,
  network text NOT NULL,
  sender text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  rate_bp integer NOT NULL CHECK (rate_bp > 0 AND rate_bp <= 10000),
  receiving_number text NOT NULL,
  ussd text NOT NULL,
  provider_reference text,
  status text NOT NULL CHECK (status IN ('awaiting', 'credited', 'expired', 'failed')),
  amount_received bigint,
  credited bigint,
  failure_reason text,
  expires_at timestamptz NOT NULL,
  next_check_at timestamptz,
  requery_count integer NOT NULL DEFAULT 0,
  last_provider_status text,
  last_checked_at timestamptz,
  settled_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX airtime_cash_requests_user_idx ON airtime_cash_requests (user_id, created_at DESC, id DESC);
-- The daily cap per sending number reads a number's requests of the day.
CREATE INDEX airtime_cash_requests_sender_idx ON airtime_cash_requests (sender, created_at);
-- Reconciliation claims the awaiting requests that are due.
CREATE INDEX airtime_cash_requests_due_idx ON airtime_cash_requests (next_check_at) WHERE status = 'awaiting';

-- Sending numbers a customer proved by an SMS code (the profile's verified phone needs no row).
CREATE TABLE airtime_cash_numbers (
  user_id uuid NOT NULL REFERENCES users (id),
  phone text NOT NULL,
  verified_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, phone)
);

-- Provider C's simulator (sandbox only): the requests it took and what it received.
CREATE TABLE sandbox_airtime_cash (
  request_id text PRIMARY KEY,
  network text NOT NULL,
  sender text NOT NULL,
  amount bigint NOT NULL,
  receiving_number text NOT NULL,
  status text NOT NULL CHECK (status IN ('awaiting', 'received', 'expired', 'failed')),
  amount_received bigint,
  receive_at timestamptz,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
