-- Issue 41: four-eyes one person cannot get around.
-- Money actions an operator applied at once (below their threshold): added up per operator and action over a rolling
-- 24 hours, so a run of small ones past the threshold waits for a checker like one large one.
CREATE TABLE approval_direct (
  id text PRIMARY KEY,
  maker_id uuid NOT NULL,
  action text NOT NULL,
  amount bigint NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX approval_direct_maker_idx ON approval_direct (maker_id, action, created_at);

-- A weakened threshold with one admin takes effect after a delay: the value waits here until scheduled_at.
ALTER TABLE approval_settings ADD COLUMN scheduled_threshold bigint, ADD COLUMN scheduled_at timestamptz, ADD COLUMN scheduled_by uuid;

-- A settlement's corrections, found by the settlement (the bound on corrections reads them).
CREATE INDEX ledger_transactions_settlement_idx ON ledger_transactions ((metadata ->> 'settlementId')) WHERE type = 'adjustment';
