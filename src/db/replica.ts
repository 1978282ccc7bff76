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

type Status = ReturnType<ReadReplica['status']>;

/** One configured replica: its pools and what the probes learnt. Read on every lag-tolerant read, written by probes. */
interface Replica {
  readonly primaryDb: Db;
  readonly replicaDb: Db;
  readonly maxLagMs: number;
  readonly intervalMs: number;
  readonly onChange?: (status: Status) => void;
  /** Primary positions sampled by the probes (start time, position), oldest first, kept for the lag bound. */
  readonly samples: { at: number; lsn: bigint }[];
  caughtUpTo: number;
  lastOk: number;
  reason: string;
  last: Status['target'];
  running: Promise<void> | null;
  /** Users whose latest write may not be replayed yet, by the time of the mark, oldest first. */
  readonly marks: Map<string, number>;
}

/** Everything before DATABASE_READ_URL, or on PGlite: every read is the primary's. */
function primaryOnly(primaryDb: Db): ReadReplica {
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

function usable(r: Replica): boolean {
  const now = performance.now();
  return now - r.lastOk <= r.maxLagMs + r.intervalMs && now - r.caughtUpTo <= r.maxLagMs;
}

function statusOf(r: Replica): Status {
  const lagMs = Number.isFinite(r.caughtUpTo) ? Math.max(0, Math.round(performance.now() - r.caughtUpTo)) : null;
  if (usable(r)) return { target: 'replica', reason: 'caught up within the bound', lagMs };
  return { target: 'primary', reason: r.reason === 'ok' ? `behind by more than ${r.maxLagMs} ms` : r.reason, lagMs };
}

/** The primary's position, then the replica's replayed one: moves caughtUpTo to the newest probe it holds. */
async function probe(r: Replica): Promise<void> {
  const at = performance.now();
  let side = 'primary';
  try {
    const p = await one<{ lsn: string }>(r.primaryDb, sql`SELECT pg_current_wal_insert_lsn()::text AS lsn`);
    side = 'replica';
    const q = await one<{ standby: boolean; replayed: string | null }>(
      r.replicaDb,
      sql`SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed`,
    );
    if (!q?.standby || !q.replayed) {
      r.reason = 'DATABASE_READ_URL is not a standby in recovery';
    } else {
      const { samples } = r;
      samples.push({ at, lsn: lsnValue(p!.lsn) });
      const replayed = lsnValue(q.replayed);
      while (samples.length > 1 && samples[1].lsn <= replayed) samples.shift();
      if (samples[0].lsn <= replayed) r.caughtUpTo = Math.max(r.caughtUpTo, samples[0].at);
      // At most one sample a probe interval over the bound is needed to tell the lag.
      if (samples.length > 4 + r.maxLagMs / r.intervalMs) samples.splice(1, 1);
      r.lastOk = performance.now();
      r.reason = 'ok';
    }
  } catch (err) {
    r.reason = `${side} unreachable (${(err as Error).message})`;
  }
  const now = statusOf(r);
  if (now.target !== r.last) r.onChange?.(now);
  r.last = now.target;
}

/** One probe at a time, given up on after PROBE_TIMEOUT_MS; a call while one runs waits for that one. */
function probeOnce(r: Replica): Promise<void> {
  return (r.running ??= (async () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        r.reason = 'replica probe timed out';
        resolve();
      }, PROBE_TIMEOUT_MS);
      timer.unref();
    });
    try {
      await Promise.race([probe(r), timeout]);
    } finally {
      clearTimeout(timer);
      r.running = null;
    }
  })());
}

function forUser(r: Replica, userId: string): Db {
  if (!usable(r)) return r.primaryDb;
  const mark = r.marks.get(userId);
  if (mark === undefined) return r.replicaDb;
  if (r.caughtUpTo > mark) {
    r.marks.delete(userId);
    return r.replicaDb;
  }
  return r.primaryDb;
}

function noteWrite({ marks }: Replica, userId: string): void {
  const now = performance.now();
  marks.delete(userId);
  marks.set(userId, now);
  // Oldest first (insertion order): drop what the lag bound already covers, and never keep more than MAX_MARKS.
  for (const [id, at] of marks) {
    if (marks.size <= MAX_MARKS && now - at < MARK_TTL_MS) break;
    marks.delete(id);
  }
}

export function openReadReplica(opts: {
  primary: Database;
  url?: string;
  poolSize: number;
  maxLagMs: number;
  onChange?: (status: Status) => void;
}): ReadReplica {
  const primaryDb = opts.primary.db;
  if (!opts.url || opts.primary.kind !== 'pg') return primaryOnly(primaryDb);
  // A replica that does not answer at all must not hold a read (or the probe, or the shutdown) for long.
  const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize, connectionTimeoutMillis: PROBE_TIMEOUT_MS, keepAlive: true });
  pool.on('error', () => {
    /* idle client errors are reported by the next query; the probe moves reads to the primary */
  });
  // The fallback of lagTolerant: the primary's pool itself. Like the replica it reads outside any request's ambient
  // transaction (db/ambient.ts), whose connection a database object picked per use must never take over.
  const primaryOutside = drizzlePg((primaryDb as unknown as { $client: pg.Pool }).$client) as unknown as Db;
  const r: Replica = {
    primaryDb,
    replicaDb: drizzlePg(pool) as unknown as Db,
    maxLagMs: opts.maxLagMs,
    intervalMs: Math.max(100, Math.min(1000, opts.maxLagMs / 2)),
    onChange: opts.onChange,
    samples: [],
    caughtUpTo: -Infinity,
    lastOk: -Infinity,
    reason: 'not probed yet',
    last: 'primary',
    running: null,
    marks: new Map(),
  };
  r.last = statusOf(r).target;
  const timer = setInterval(() => void probeOnce(r), r.intervalMs);
  timer.unref();
  void probeOnce(r);

  const lagTolerant = new Proxy(primaryDb, {
    get(_target, prop) {
      const db = usable(r) ? r.replicaDb : primaryOutside;
      const value = Reflect.get(db, prop);
      return typeof value === 'function' ? value.bind(db) : value;
    },
  });
  return {
    configured: true,
    lagTolerant,
    forUser: (userId) => forUser(r, userId),
    noteWrite: (userId) => noteWrite(r, userId),
    probe: () => probeOnce(r),
    status: () => statusOf(r),
    close: async () => {
      clearInterval(timer);
      await r.running;
      await pool.end();
    },
  };
}
