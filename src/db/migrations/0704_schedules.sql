-- Scheduled airtime/data purchases (issue 9). Times are Africa/Lagos wall-clock; next_run_at is the next slot
-- in UTC. schedule_runs has one row per (schedule, slot): the unique key is what makes a slot run once.
CREATE TABLE schedules (
  id uuid PRIMARY KEY,
  seq bigserial NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id),
  service text NOT NULL CHECK (service IN ('airtime', 'data')),
  network text NOT NULL,
  phone text NOT NULL,
  plan_id text,
  amount bigint NOT NULL CHECK (amount > 0),
  ported boolean NOT NULL DEFAULT false,
  frequency text NOT NULL CHECK (frequency IN ('daily', 'weekly', 'monthly')),
  time_of_day text NOT NULL,
  day_of_week smallint CHECK (day_of_week BETWEEN 0 AND 6),
  day_of_month smallint CHECK (day_of_month BETWEEN 1 AND 31),
  label text,
  active boolean NOT NULL DEFAULT true,
  next_run_at timestamptz,
  last_run_at timestamptz,
  last_status text,
  last_error text,
  consecutive_failures integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX schedules_user_idx ON schedules (user_id, seq);
CREATE INDEX schedules_due_idx ON schedules (next_run_at) WHERE active;

CREATE TABLE schedule_runs (
  id uuid PRIMARY KEY,
  schedule_id uuid NOT NULL REFERENCES schedules(id) ON DELETE CASCADE,
  user_id uuid NOT NULL,
  slot timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('running', 'success', 'processing', 'failed', 'skipped')),
  vtu_transaction_id uuid,
  error_code text,
  error_message text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (schedule_id, slot)
);
