-- /metrics reads purchases of the last 24 hours on every scrape (issue #21): by creation time, not a scan.
CREATE INDEX vtu_transactions_created_idx ON vtu_transactions (created_at);
