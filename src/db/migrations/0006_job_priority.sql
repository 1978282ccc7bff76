-- Issue 11: a job's priority (JobDef.priority). Workers claim due jobs by priority, then by due time, so a burst of
-- webhook credits runs ahead of the notifications it produces instead of queueing behind them. The partial index
-- serves the claim's ordered scan of queued jobs.
ALTER TABLE jobs ADD COLUMN priority smallint NOT NULL DEFAULT 0;
CREATE INDEX jobs_queued_claim_idx ON jobs (priority DESC, run_at) WHERE status = 'queued';
