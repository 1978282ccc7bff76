import { sql, type SQL } from 'drizzle-orm';
import { rows, type Db } from '../../db/client.js';
import { batched } from '../../platform/batch.js';

/** A PIN check to make: the MAC of the PIN given, and the check's time. */
export interface PinCheck {
  userId: string;
  kind: string;
  mac: string;
  now: Date;
}

/** What the counting UPDATE answered for a check; null: no row matched (no PIN, locked, or a row without its MAC). */
export interface PinChecked {
  ok: boolean;
  locked_until: Date | null;
  failed_attempts: number;
}

/**
 * The counting statement, for one check or many (one text, one prepared statement): compare, count a failure or clear
 * the count, and lock on the last try, on each row under its row lock, the rows locked in key order first. Answers a
 * row per check it counted, `i` its place in `items`; none for a check with no PIN, a locked PIN or a row without
 * its MAC.
 */
export function pinCheckStatement(items: readonly PinCheck[], opts: { maxAttempts: number; lockSeconds: number }): SQL {
  const checks = JSON.stringify(items.map((c, i) => ({ i, user_id: c.userId, kind: c.kind, mac: c.mac, now: c.now.toISOString() })));
  const max = opts.maxAttempts;
  return sql`WITH r AS (SELECT * FROM jsonb_to_recordset(${checks}::jsonb) AS r(i int, user_id uuid, kind text, mac text, now timestamptz)),
      l AS (SELECT p.user_id FROM user_pins p JOIN r ON p.user_id = r.user_id AND p.kind = r.kind
            WHERE p.enabled AND p.check_mac IS NOT NULL ORDER BY p.user_id, p.kind FOR UPDATE OF p)
      UPDATE user_pins p SET
        failed_attempts = CASE WHEN p.check_mac = r.mac OR p.failed_attempts + 1 >= ${max} THEN 0 ELSE p.failed_attempts + 1 END,
        lock_count = CASE WHEN p.check_mac <> r.mac AND p.failed_attempts + 1 >= ${max} THEN p.lock_count + 1 ELSE p.lock_count END,
        locked_until = CASE WHEN p.check_mac <> r.mac AND p.failed_attempts + 1 >= ${max}
                            THEN r.now + make_interval(secs => ${opts.lockSeconds} * power(2, p.lock_count)) ELSE NULL END
      FROM r
      WHERE p.user_id = r.user_id AND p.kind = r.kind AND p.enabled AND p.check_mac IS NOT NULL
        AND (p.locked_until IS NULL OR p.locked_until <= r.now)
        AND (SELECT count(*) FROM l) >= 0
      RETURNING r.i, p.check_mac = r.mac AS ok, p.locked_until, p.failed_attempts`;
}

/**
 * The PIN checks of concurrent requests made by ONE statement (issue 31: one commit for many money requests instead
 * of one each), gathered per event-loop turn (src/platform/batch.ts). Each row is checked exactly as the single statement
 * in pins.ts checks it: compared, counted and locked under its row lock, one row at most once per statement (two
 * checks of one PIN never share a batch), so parallel guesses still meet the attempt limit one at a time. The rows
 * are locked in key order first, so two batches cannot deadlock. A batch of one, or a statement that fails, answers
 * `alone` and each check is made by the single statement.
 */
export function pinCheckBatcher(db: Db, opts: { max: number; maxAttempts: number; lockSeconds: number }) {
  return batched<PinCheck, PinChecked | null | 'alone'>({
    max: opts.max,
    waitMs: 0,
    keys: (c) => [`${c.userId.toLowerCase()}\n${c.kind}`],
    run: async (items) => {
      if (items.length < 2) return items.map(() => 'alone' as const);
      let answered: (PinChecked & { i: number })[];
      try {
        answered = await rows(db, pinCheckStatement(items, opts));
      } catch {
        return items.map(() => 'alone' as const);
      }
      const byItem = new Map(answered.map((a) => [a.i, a]));
      return items.map((_, i) => {
        const a = byItem.get(i);
        return a ? { ok: a.ok, locked_until: a.locked_until, failed_attempts: a.failed_attempts } : null;
      });
    },
  });
}
