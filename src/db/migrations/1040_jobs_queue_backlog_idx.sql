-- The webhook's admission control reads how many credit jobs are due and since when (src/jobs/lanes.ts
-- queueBacklog), and the credit lanes claim only their own queue: both walk this index, never the whole queued set
-- (notifications queued behind a burst are not in their way).
CREATE INDEX IF NOT EXISTS jobs_queued_queue_idx ON jobs (queue, run_at) WHERE status = 'queued';
