import { performance } from 'node:perf_hooks';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { one, type Database, type Db } from './client.js';

/**
 * Reads that tolerate lag (statements, reports, catalogues, the console's dashboard, searches and exports) go to a
 * streaming replica when DATABASE_READ_URL is set, and to the primary otherwise. Money checks never come here: they
 * keep using the primary's `db` (balances for a debit, limits, idempotency, anything inside a transaction).
 *
 * A probe runs every second (more often under a bound below two seconds): it reads the primary's WAL position, then
 * the replica's replayed position. A primary position the replica has replayed means the replica holds everything
 * committed before that probe started; `caughtUpTo` is the start of the newest such probe. The replica is used while
 * it holds everything older than DATABASE_READ_MAX_LAG_SECONDS and the last probe succeeded; otherwise (down,
 * lagging, not a standby) every read goes to the primary until a probe finds it caught up again.
 *
 * Read-your-own-writes: a request other than GET or HEAD by a signed-in user marks that user (`noteWrite`, from the
 * app's onSend hook, before the answer leaves). That user's own reads (`forUser`) go to the primary until a probe
 * started after the mark has been replayed: a purchase and then its transaction list show the purchase at once.
 * The marks live in this process (docs/decisions.md): another instance does not know them.
 */
export interface ReadReplica {
  /** Whether DATABASE_READ_URL is set (on PGlite, or without it, every read is the primary's). */
  readonly configured: boolean;
  /** A database object for lag-tolerant reads of no one user (dashboards, searches, exports, catalogues). */
  readonly lagTolerant: Db;
  /** The database a user's own lag-tolerant read uses: the primary while their latest write may not be replayed. */
  forUser(userId: string): Db;
  /** Records that `userId` may just have written (see above). */
  noteWrite(userId: string): void;
  /** Runs one probe now (the timer runs them anyway; tests call it instead of waiting). */
  probe(): Promise<void>;
  /** Where lag-tolerant reads go right now, and why. */
  status(): { target: 'replica' | 'primary'; reason: string; lagMs: number | null };
  close(): Promise<void>;
}

/** A pg_lsn ('16/B374D848') as one number. */
export function lsnValue(lsn: string): bigint {
  const [hi, lo] = lsn.split('/');
  return (BigInt(`0x${hi}`) << 32n) | BigInt(`0x${lo}`);
}

/** Marks older than this are dropped: by then the lag bound sends everyone to the primary anyway. */
const MARK_TTL_MS = 10 * 60_000;
const MAX_MARKS = 100_000;
/** A probe that has not answered by then counts as failed (the replica is not used until one succeeds). */
const PROBE_TIMEOUT_MS = 5_000;

export function openReadReplica(opts: {
  primary: Database;
  url?: string;
  poolSize: number;
  maxLagMs: number;
  onChange?: (status: ReturnType<ReadReplica['status']>) => void;
}): ReadReplica {
  const primaryDb = opts.primary.db;
  if (!opts.url || opts.primary.kind !== 'pg') {
    return {
      configured: false,
      lagTolerant: primaryDb,
      forUser: () => primaryDb,
      noteWrite: () => undefined,
      probe: async () => undefined,
      status: () => ({ target: 'primary', reason: 'no DATABASE_READ_URL', lagMs: null }),
      close: async () => undefined,
    };
  }
  // A replica that does not answer at all must not hold a read (or the probe, or the shutdown) for long.
  const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize, connectionTimeoutMillis: PROBE_TIMEOUT_MS, keepAlive: true });
  pool.on('error', () => {
    /* idle client errors are reported by the next query; the probe moves reads to the primary */
  });
  const replicaDb = drizzlePg(pool) as unknown as Db;
  // The fallback of lagTolerant: the primary's pool itself. Like the replica it reads outside any request's ambient
  // transaction (db/ambient.ts), whose connection a database object picked per use must never take over.
  const primaryPool = (primaryDb as unknown as { $client: pg.Pool }).$client;
  const primaryOutside = drizzlePg(primaryPool) as unknown as Db;

  /** Primary positions sampled by the probes (start time, position), oldest first, kept for the lag bound. */
  const samples: { at: number; lsn: bigint }[] = [];
  let caughtUpTo = -Infinity;
  let lastOk = -Infinity;
  let reason = 'not probed yet';
  const marks = new Map<string, number>();
  const intervalMs = Math.max(100, Math.min(1000, opts.maxLagMs / 2));

  const usable = () => {
    const now = performance.now();
    return now - lastOk <= opts.maxLagMs + intervalMs && now - caughtUpTo <= opts.maxLagMs;
  };
  const status = (): ReturnType<ReadReplica['status']> => {
    const lagMs = Number.isFinite(caughtUpTo) ? Math.max(0, Math.round(performance.now() - caughtUpTo)) : null;
    if (usable()) return { target: 'replica', reason: 'caught up within the bound', lagMs };
    return { target: 'primary', reason: reason === 'ok' ? `behind by more than ${opts.maxLagMs} ms` : reason, lagMs };
  };
  let last = status().target;

  async function probe() {
    const at = performance.now();
    let side = 'primary';
    try {
      const p = await one<{ lsn: string }>(primaryDb, sql`SELECT pg_current_wal_insert_lsn()::text AS lsn`);
      side = 'replica';
      const r = await one<{ standby: boolean; replayed: string | null }>(
        replicaDb,
        sql`SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed`,
      );
      if (!r?.standby || !r.replayed) {
        reason = 'DATABASE_READ_URL is not a standby in recovery';
      } else {
        samples.push({ at, lsn: lsnValue(p!.lsn) });
        const replayed = lsnValue(r.replayed);
        while (samples.length > 1 && samples[1].lsn <= replayed) samples.shift();
        if (samples[0].lsn <= replayed) caughtUpTo = Math.max(caughtUpTo, samples[0].at);
        // At most one sample a probe interval over the bound is needed to tell the lag.
        if (samples.length > 4 + opts.maxLagMs / intervalMs) samples.splice(1, 1);
        lastOk = performance.now();
        reason = 'ok';
      }
    } catch (err) {
      reason = `${side} unreachable (${(err as Error).message})`;
    }
    const now = status();
    if (now.target !== last) opts.onChange?.(now);
    last = now.target;
  }

  let running: Promise<void> | null = null;
  const probeOnce = () =>
    (running ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          reason = 'replica probe timed out';
          resolve();
        }, PROBE_TIMEOUT_MS);
        timer.unref();
      });
      try {
        await Promise.race([probe(), timeout]);
      } finally {
        clearTimeout(timer);
        running = null;
      }
    })());
  const timer = setInterval(() => void probeOnce(), intervalMs);
  timer.unref();
  void probeOnce();

  const lagTolerant = new Proxy(primaryDb, {
    get(_target, prop) {
      const db = usable() ? replicaDb : primaryOutside;
      const value = Reflect.get(db, prop);
      return typeof value === 'function' ? value.bind(db) : value;
    },
  });

  return {
    configured: true,
    lagTolerant,
    forUser(userId) {
      if (!usable()) return primaryDb;
      const mark = marks.get(userId);
      if (mark === undefined) return replicaDb;
      if (caughtUpTo > mark) {
        marks.delete(userId);
        return replicaDb;
      }
      return primaryDb;
    },
    noteWrite(userId) {
      const now = performance.now();
      marks.delete(userId);
      marks.set(userId, now);
      // Oldest first (insertion order): drop what the lag bound already covers, and never keep more than MAX_MARKS.
      for (const [id, at] of marks) {
        if (marks.size <= MAX_MARKS && now - at < MARK_TTL_MS) break;
        marks.delete(id);
      }
    },
    probe: probeOnce,
    status,
    close: async () => {
      clearInterval(timer);
      await running;
      await pool.end();
    },
  };
}
