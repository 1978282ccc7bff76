import { sql, type SQL } from 'drizzle-orm';

/** One job as a row of data: what `insertJobRowsSql` inserts (JobQueue.jobRow makes it, payload checked). */
export interface JobRow {
  queue: string;
  payload: unknown;
  /** ISO time; null: when the statement is built. */
  runAt: string | null;
  singletonKey: string | null;
  maxAttempts: number;
  priority: number;
}

/**
 * The INSERT of jobs whose rows travel as data: one job per row of `each` (a relation whose `data` column is a
 * JobRow), of any queue, where `where` holds; a singleton key already taken inserts nothing for that row.
 */
export function insertJobRowsSql(now: Date, each: SQL, where: SQL): SQL {
  return sql`INSERT INTO jobs (queue, payload, status, run_at, max_attempts, priority, singleton_key, created_at, updated_at)
    SELECT each.data ->> 'queue', each.data -> 'payload', 'queued', COALESCE((each.data ->> 'runAt')::timestamptz, ${now}::timestamptz),
           (each.data ->> 'maxAttempts')::int, (each.data ->> 'priority')::smallint, each.data ->> 'singletonKey', ${now}, ${now}
    FROM ${each} WHERE ${where}
    ON CONFLICT (singleton_key) DO NOTHING RETURNING id::text AS id`;
}
