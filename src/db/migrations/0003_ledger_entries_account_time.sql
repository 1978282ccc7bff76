-- Issue 11: the daily-outflow check of every debit sums a wallet's entries since Lagos midnight. With only
-- (account_id, id) it read every entry the wallet ever had; this index reads today's entries only.
CREATE INDEX ledger_entries_account_time_idx ON ledger_entries (account_id, created_at);
