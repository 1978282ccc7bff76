-- Operator console (issue 30): long operator actions as jobs with progress, and the indexes the dashboard and the
-- CSV exports read (docs/scaling.md "Operator dashboard and exports").

-- One row per operator job (reconciliation, bulk requery, export). The queue row (`jobs`, queue console.run) runs
-- it; this row is what operators see, kept after the queue's retention clean-up.
CREATE TABLE operator_jobs (
  id text PRIMARY KEY,
  kind text NOT NULL,                 -- reconciliation | bulk_requery | export
  status text NOT NULL,               -- queued | running | done | failed
  input jsonb NOT NULL,
  progress_done integer NOT NULL DEFAULT 0,
  progress_total integer NOT NULL DEFAULT 0,
  result jsonb,
  error text,
  file_key text,
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz NOT NULL
);
CREATE INDEX operator_jobs_created_idx ON operator_jobs (created_at DESC, id DESC);
-- One reconciliation and one bulk requery open at a time (a second start answers the open job); exports are many.
CREATE UNIQUE INDEX operator_jobs_one_open_idx ON operator_jobs (kind)
  WHERE status IN ('queued', 'running') AND kind IN ('reconciliation', 'bulk_requery');

-- The dashboard's volume, provider and burn figures are index-only scans of a date range: every column they read
-- is in the index. It leads with created_at, so the exports' keyset pages (created_at, id) walk it too.
CREATE INDEX vtu_transactions_dashboard_idx ON vtu_transactions (created_at, id)
  INCLUDE (service, provider, status, amount, wholesale, updated_at);

-- Top-up exports page through a date range by (created_at, id).
CREATE INDEX topup_intents_created_idx ON topup_intents (created_at, id);

-- Ledger exports: the id bounds of a date range come from this BRIN index (a few pages per thousand table pages,
-- nearly free to keep up on an append-only table whose created_at follows its id), then pages walk the primary key.
CREATE INDEX ledger_entries_created_brin ON ledger_entries USING brin (created_at);

-- System accounts keep no balance column (their balance is the sum of their entries). The dashboard's float balances
-- read a snapshot per account, moved forward every few minutes by the console.balance-snapshots job, plus the
-- entries after it (ledger_entries_account_idx), instead of summing every entry a float account ever had.
CREATE TABLE account_balance_snapshots (
  account_id bigint PRIMARY KEY REFERENCES accounts(id),
  through_id bigint NOT NULL,
  balance bigint NOT NULL,
  updated_at timestamptz NOT NULL
);
