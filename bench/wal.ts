import pg from 'pg';

/**
 * What a measured run cost PostgreSQL in commits and WAL, for one database (issue 31, "postings in batches": commits
 * per second and WAL bytes per posting). Read from the server itself around the run:
 * - `xactCommits`: pg_stat_database.xact_commit of the database (every committed transaction, read-only ones
 *   included: an autocommit SELECT counts);
 * - from the WAL written in the window (pg_walinspect): `walCommits`, the commit records of transactions that wrote
 *   to this database (each one a WAL flush the committer waits for), and `walBytes`, the bytes of every record of
 *   those transactions plus records on this database's relations without a transaction (page pruning, full-page
 *   images). Other databases on the same server (other sessions' tests) are left out.
 * pg_walinspect ships with PostgreSQL 15+; without it (or without superuser) the WAL figures are null.
 */
export interface WalCost {
  seconds: number;
  xactCommits: number;
  walCommits: number | null;
  walBytes: number | null;
  /** Of walBytes, the full-page images (the first change to a page after a checkpoint: they come and go with checkpoints). */
  fpiBytes: number | null;
  /** Every database's WAL in the window (pg_current_wal_lsn difference), for comparison. */
  clusterBytes: number;
}

export async function walWindow(url: string): Promise<() => Promise<WalCost>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  c.on('error', () => undefined);
  let inspect = true;
  try {
    await c.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect');
  } catch {
    inspect = false;
  }
  const snap = async () =>
    (
      await c.query<{ lsn: string; commits: string; oid: number }>(
        `SELECT pg_current_wal_lsn()::text AS lsn, xact_commit::text AS commits, d.oid::int AS oid
         FROM pg_stat_database s JOIN pg_database d ON d.datname = s.datname WHERE s.datname = current_database()`,
      )
    ).rows[0];
  // pg_stat_database is read from a snapshot taken once per transaction: each read outside one sees the latest.
  const before = await snap();
  const t0 = performance.now();
  return async () => {
    const seconds = (performance.now() - t0) / 1000;
    // The statistics of backends that just committed reach pg_stat_database within a second (stats_fetch_consistency).
    await new Promise((r) => setTimeout(r, 1100));
    const after = await snap();
    const cluster = await c.query<{ bytes: string }>(`SELECT pg_wal_lsn_diff($1, $2)::text AS bytes`, [after.lsn, before.lsn]);
    let walCommits: number | null = null;
    let walBytes: number | null = null;
    let fpiBytes: number | null = null;
    if (inspect) {
      try {
        const r = await c.query<{ commits: string; bytes: string; fpi: string }>(
          `WITH r AS (SELECT xid, resource_manager, record_type, record_length, fpi_length, block_ref FROM pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn)),
                mine AS (SELECT DISTINCT xid FROM r WHERE xid <> 0 AND block_ref LIKE '%/' || $3::text || '/%')
           SELECT count(*) FILTER (WHERE r.resource_manager = 'Transaction' AND r.record_type LIKE 'COMMIT%' AND r.xid IN (SELECT xid FROM mine))::text AS commits,
                  COALESCE(sum(r.record_length) FILTER (WHERE r.xid IN (SELECT xid FROM mine) OR r.block_ref LIKE '%/' || $3::text || '/%'), 0)::text AS bytes,
                  COALESCE(sum(r.fpi_length) FILTER (WHERE r.xid IN (SELECT xid FROM mine) OR r.block_ref LIKE '%/' || $3::text || '/%'), 0)::text AS fpi
           FROM r`,
          [before.lsn, after.lsn, String(before.oid)],
        );
        walCommits = Number(r.rows[0].commits);
        walBytes = Number(r.rows[0].bytes);
        fpiBytes = Number(r.rows[0].fpi);
      } catch (err) {
        console.error(`pg_walinspect: ${(err as Error).message}`);
      }
    }
    await c.end();
    return {
      seconds,
      xactCommits: Number(after.commits) - Number(before.commits),
      walCommits,
      walBytes,
      fpiBytes,
      clusterBytes: Number(cluster.rows[0].bytes),
    };
  };
}

/** "commits/s (per request); WAL commits per request; WAL bytes per request" for a run of `requests`. */
export function walLine(name: string, w: WalCost, requests: number): string {
  const per = (n: number | null) => (n === null || !requests ? '?' : (n / requests).toFixed(n / requests < 10 ? 2 : 0));
  return `| ${name} | ${requests} | ${Math.round(w.xactCommits / w.seconds)} (${per(w.xactCommits)}) | ${w.walCommits === null ? '?' : Math.round(w.walCommits / w.seconds)} (${per(w.walCommits)}) | ${per(w.walBytes)} (${per(w.fpiBytes)}) | ${per(w.clusterBytes)} |`;
}

export const WAL_HEADER = `| run | requests | commits/s, all (per request) | WAL-flushing commits/s (per request) | WAL bytes per request, this database (of which full-page images) | WAL bytes per request, whole server |
|---|---|---|---|---|---|`;
