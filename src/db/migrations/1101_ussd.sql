-- The USSD menu (issue 46). A session is one dial: the gateway's sessionId, the caller, how many answers it has
-- taken (`step`: a retry of a step already taken gets the stored screen again) and where the menu is (`state`).
-- The PIN is never stored: a session keeps no answer text.
CREATE TABLE ussd_sessions (
  session_id text PRIMARY KEY,
  phone text NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id),
  step integer NOT NULL,
  state jsonb NOT NULL,
  screen text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX ussd_sessions_updated_idx ON ussd_sessions (updated_at);

-- A purchase made from a session's step: claimed before the purchase, so one step buys at most once whatever the
-- gateway retries; `transaction_id` once the purchase path answered, `notified_at` once its result went by SMS.
CREATE TABLE ussd_purchases (
  session_id text NOT NULL,
  step integer NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id),
  phone text NOT NULL,
  language text NOT NULL,
  summary text NOT NULL,
  transaction_id uuid,
  notified_at timestamptz,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (session_id, step)
);

-- Requests per calling number in the current minute (USSD_RATE_PER_MINUTE).
CREATE TABLE ussd_rate (
  phone text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL
);
