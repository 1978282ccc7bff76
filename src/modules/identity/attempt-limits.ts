import { sql, type SQL } from 'drizzle-orm';
import { one, type Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';

/**
 * Attempt counters that hold under concurrency: a try is reserved by one conditional upsert
 * before the check it guards, so however many requests arrive at once, at most `max` tries per lock are checked.
 * A failed try keeps its reservation and the one that used the last try sets the lock (doubling with each repeat
 * when `doubling`); a successful try starts the count again.
 */
export interface AttemptLimit {
  max: number;
  lockMs: number;
  doubling?: boolean;
  /** The longest a doubling lock gets. */
  maxLockMs?: number;
}

export type Reservation = { ok: true; tries: number } | { ok: false; retryAfter: number };

export interface AttemptLimits {
  reserve(key: string, limit: AttemptLimit): Promise<Reservation>;
  /** The reserved try failed; returns the lock's seconds when this try set it. */
  fail(key: string, tries: number, limit: AttemptLimit): Promise<number | null>;
  succeed(key: string): Promise<void>;
  /** Gives back a reserved try that was not a guess (refused before any comparison, or a replay). */
  release(key: string): Promise<void>;
}

export function createAttemptLimits({ db, clock }: { db: Db; clock: Clock }): AttemptLimits {
  return {
    async reserve(key, limit) {
      const now = clock.now();
      const r = await one<{ failures: number }>(
        db,
        sql`INSERT INTO attempt_limits (key, failures, updated_at) VALUES (${key}, 1, ${now})
            ON CONFLICT (key) DO UPDATE SET failures = attempt_limits.failures + 1, updated_at = EXCLUDED.updated_at
            WHERE (attempt_limits.locked_until IS NULL OR attempt_limits.locked_until <= ${now}) AND attempt_limits.failures < ${limit.max}
            RETURNING failures`,
      );
      if (r) return { ok: true, tries: r.failures };
      const row = await one<{ locked_until: Date | null }>(db, sql`SELECT locked_until FROM attempt_limits WHERE key = ${key}`);
      const until = row?.locked_until ? new Date(row.locked_until).getTime() : 0;
      // Locked, or every try is taken by checks still in flight (the last of them will set the lock).
      return { ok: false, retryAfter: until > now.getTime() ? Math.ceil((until - now.getTime()) / 1000) : Math.ceil(limit.lockMs / 1000) };
    },

    async fail(key, tries, limit) {
      if (tries < limit.max) return null;
      const now = clock.now();
      // The n-th lock (n counted from 0) lasts lockMs, or lockMs * 2^n when doubling, at most maxLockMs.
      const lockMsOf = (n: SQL) =>
        sql`least(${limit.lockMs}::float8 * ${limit.doubling ? sql`power(2, ${n})` : sql`1`}, ${limit.maxLockMs ?? Number.MAX_SAFE_INTEGER}::float8)`;
      const r = await one<{ lock_ms: number }>(
        db,
        sql`UPDATE attempt_limits SET failures = 0, lock_count = lock_count + 1, updated_at = ${now},
              locked_until = ${now}::timestamptz + make_interval(secs => ${lockMsOf(sql`lock_count`)} / 1000)
            WHERE key = ${key}
            RETURNING ${lockMsOf(sql`lock_count - 1`)} AS lock_ms`,
      );
      return r ? Math.ceil(r.lock_ms / 1000) : null;
    },

    async succeed(key) {
      await db.execute(sql`UPDATE attempt_limits SET failures = 0, updated_at = ${clock.now()} WHERE key = ${key} AND failures > 0`);
    },

    async release(key) {
      await db.execute(sql`UPDATE attempt_limits SET failures = failures - 1 WHERE key = ${key} AND failures > 0`);
    },
  };
}
