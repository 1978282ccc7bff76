-- Flights (issue 32, provider C): the offers a search answered, held per customer until booked or expired, and the
-- cancellations of ticketed bookings. A booking is a purchase (vtu_transactions, its passengers in `inputs`).
CREATE TABLE flight_offers (
  id text PRIMARY KEY,
  user_id uuid NOT NULL,
  provider text NOT NULL,
  provider_offer_id text NOT NULL,
  search jsonb NOT NULL,
  itinerary jsonb NOT NULL,
  passengers integer NOT NULL CHECK (passengers BETWEEN 1 AND 9),
  wholesale bigint NOT NULL CHECK (wholesale > 0),
  refundable boolean NOT NULL,
  cancel_fee bigint NOT NULL CHECK (cancel_fee >= 0),
  departs_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX flight_offers_user_idx ON flight_offers (user_id, created_at);

-- A ticketed booking cancelled by its fare's rules: the refund the provider gave back, credited to the buyer once
-- (ledger reference flight_cancel_<transaction reference>). The booking itself is its vtu_transactions row.
CREATE TABLE flight_cancellations (
  transaction_id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  refund bigint NOT NULL CHECK (refund >= 0),
  fee bigint NOT NULL CHECK (fee >= 0),
  created_at timestamptz NOT NULL
);

-- Sandbox (provider C's simulator): the offers it answered (a repriced one keeps its new fare) and its cancellations.
CREATE TABLE sandbox_flight_offers (
  offer_id text PRIMARY KEY,
  search jsonb NOT NULL,
  itinerary jsonb NOT NULL,
  passengers integer NOT NULL,
  amount bigint NOT NULL,
  refundable boolean NOT NULL,
  cancel_fee bigint NOT NULL,
  departs_at timestamptz NOT NULL,
  repriced boolean NOT NULL DEFAULT false,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE TABLE sandbox_flight_cancellations (
  request_id text PRIMARY KEY,
  refund bigint NOT NULL,
  fee bigint NOT NULL,
  created_at timestamptz NOT NULL
);
