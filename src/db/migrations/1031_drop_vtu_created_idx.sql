-- vtu_transactions_dashboard_idx (migration 1030) leads with created_at and includes every column /metrics and the
-- operator dashboard read: it answers what vtu_transactions_created_idx (0901) did, index-only. One index fewer to
-- keep up on every purchase and status change; with both, the planner took the narrower one and read the table.
DROP INDEX IF EXISTS vtu_transactions_created_idx;
