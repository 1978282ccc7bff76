-- Transaction reports (a user disputes one of their transactions) and client issue reports from the public
-- report-issue endpoint (issue 9).
CREATE TABLE transaction_reports (
  id uuid PRIMARY KEY,
  seq bigserial NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id),
  reference text NOT NULL,
  transaction_type text NOT NULL,
  amount bigint,
  category text NOT NULL,
  description text NOT NULL,
  status text NOT NULL CHECK (status IN ('open', 'resolved')),
  resolution_note text,
  resolved_by uuid,
  resolved_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
-- One open report per transaction: a second one while the first is open is a conflict, not a duplicate row.
CREATE UNIQUE INDEX transaction_reports_one_open ON transaction_reports (user_id, reference) WHERE status = 'open';
CREATE INDEX transaction_reports_user_idx ON transaction_reports (user_id, seq DESC);
CREATE INDEX transaction_reports_status_idx ON transaction_reports (status, seq DESC);

CREATE TABLE issue_reports (
  id uuid PRIMARY KEY,
  seq bigserial NOT NULL,
  message text NOT NULL,
  stack text,
  url text,
  user_agent text,
  app_version text,
  ip_hash text,
  created_at timestamptz NOT NULL
);
CREATE INDEX issue_reports_seq_idx ON issue_reports (seq DESC);
