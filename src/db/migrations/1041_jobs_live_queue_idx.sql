-- The webhook's admission control counts credit jobs waiting AND those a worker holds (a claimed batch that is slow
-- to commit is credit that is late too): 1040's index, widened to running jobs.
DROP INDEX IF EXISTS jobs_queued_queue_idx;
CREATE INDEX IF NOT EXISTS jobs_live_queue_idx ON jobs (queue, run_at) WHERE status IN ('queued', 'running');
