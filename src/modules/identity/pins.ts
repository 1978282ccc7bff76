import { createHmac, randomBytes, scrypt } from 'node:crypto';
import { promisify } from 'node:util';
import { sql, type SQL } from 'drizzle-orm';
import { one, type Db } from '../../db/client.js';
import { AppError } from '../../http/errors.js';
import { MINUTE, type Clock } from '../../lib/clock.js';
import { safeEqual } from '../../lib/crypto.js';

/**
 * PINs (DESIGN §5): keyed hash (scrypt over pepper + per-user salt), constant-time compare; 5 wrong tries lock
 * that PIN for 15 minutes, doubling on each repeat lock. Transaction PIN 4 digits, login PIN 6 digits.
 */
export type PinKind = 'transaction' | 'login';
export const PIN_MAX_ATTEMPTS = 5;
export const PIN_LOCK_MS = 15 * MINUTE;
/** Verified PINs remembered by one instance (issue 11), oldest dropped first. */
export const VERIFIED_PIN_CACHE_MAX = 20_000;

export interface PinService {
  isSet(userId: string, kind: PinKind): Promise<boolean>;
  set(userId: string, kind: PinKind, pin: string): Promise<void>;
  disable(userId: string, kind: PinKind): Promise<void>;
  /**
   * Throws PIN_NOT_SET, PIN_LOCKED (429) or `wrongCode` on a wrong PIN. `row`: the PIN row as rowSql read it
   * moments ago in the request's read-ahead (null: no PIN); omitted, it is read here.
   */
  verify(userId: string, kind: PinKind, pin: string, wrongCode?: 'INVALID_PIN' | 'INVALID_CREDENTIALS', row?: PinRow | null): Promise<void>;
  /** The row verify reads, as a scalar JSON subquery for a request's read-ahead (OperationDef.readAhead). */
  rowSql(userId: string, kind: PinKind): SQL;
}

/** What verify needs of a PIN; locked_until may arrive as JSON text. */
export interface PinRow {
  hash: string;
  salt: string;
  failed_attempts: number;
  lock_count: number;
  locked_until: Date | string | null;
}

export function createPinService({ db, clock, pepper }: { db: Db; clock: Clock; pepper: string }): PinService {
  // Asynchronous scrypt runs on libuv's thread pool: a PIN check on every money request does not stall the event
  // loop for everyone else (issue 11).
  const scryptAsync = promisify(scrypt) as (password: string, salt: string, keylen: number, opts: { N: number; r: number; p: number }) => Promise<Buffer>;
  const hashPin = async (pin: string, salt: string) => (await scryptAsync(`${pepper}:${pin}`, salt, 32, { N: 1024, r: 8, p: 1 })).toString('hex');
  // Issue 11: scrypt costs milliseconds of CPU, on every money request. A PIN that verified once is remembered as
  // HMAC(pepper, kind, user, salt, pin) -> the stored hash it matched; the next check of the same PIN against the
  // same stored row skips scrypt. Only successes are kept, the row (lock, failures) is still read every time, and
  // a new PIN has a new salt and hash, so an old entry can never match again. 4-digit PINs are guarded by the
  // attempt lock, not by the hash's cost (10,000 candidates are quick to try either way): see docs/security.md.
  const verified = new Map<string, string>();
  const memoKey = (userId: string, kind: PinKind, salt: string, pin: string) => createHmac('sha256', pepper).update(`${kind}\n${userId}\n${salt}\n${pin}`).digest('hex');

  return {
    async isSet(userId, kind) {
      const r = await one(db, sql`SELECT 1 FROM user_pins WHERE user_id = ${userId} AND kind = ${kind} AND enabled`);
      return Boolean(r);
    },
    async set(userId, kind, pin) {
      const salt = randomBytes(16).toString('hex');
      const now = clock.now();
      await db.execute(sql`
        INSERT INTO user_pins (user_id, kind, hash, salt, failed_attempts, lock_count, locked_until, enabled, updated_at)
        VALUES (${userId}, ${kind}, ${await hashPin(pin, salt)}, ${salt}, 0, 0, NULL, true, ${now})
        ON CONFLICT (user_id, kind) DO UPDATE SET hash = EXCLUDED.hash, salt = EXCLUDED.salt, failed_attempts = 0,
          locked_until = NULL, enabled = true, updated_at = EXCLUDED.updated_at`);
    },
    async disable(userId, kind) {
      await db.execute(sql`UPDATE user_pins SET enabled = false, updated_at = ${clock.now()} WHERE user_id = ${userId} AND kind = ${kind}`);
    },
    rowSql(userId, kind) {
      return sql`SELECT json_build_object('hash', hash, 'salt', salt, 'failed_attempts', failed_attempts, 'lock_count', lock_count, 'locked_until', locked_until)
                 FROM user_pins WHERE user_id = ${userId} AND kind = ${kind} AND enabled`;
    },
    async verify(userId, kind, pin, wrongCode = 'INVALID_PIN', prefetched) {
      const now = clock.now();
      const row =
        prefetched !== undefined
          ? prefetched
          : await one<PinRow>(db, sql`SELECT hash, salt, failed_attempts, lock_count, locked_until FROM user_pins WHERE user_id = ${userId} AND kind = ${kind} AND enabled`);
      if (!row) {
        if (kind === 'login') throw new AppError('INVALID_CREDENTIALS', 'Wrong identifier or PIN');
        throw new AppError('PIN_NOT_SET', 'Set a transaction PIN first');
      }
      if (row.locked_until && new Date(row.locked_until).getTime() > now.getTime()) {
        const s = Math.ceil((new Date(row.locked_until).getTime() - now.getTime()) / 1000);
        throw new AppError('PIN_LOCKED', `Too many wrong PINs; try again in ${Math.ceil(s / 60)} minutes`, { retryAfter: s });
      }
      const key = memoKey(userId, kind, row.salt, pin);
      const remembered = verified.get(key);
      if ((remembered !== undefined && safeEqual(row.hash, remembered)) || safeEqual(row.hash, await hashPin(pin, row.salt))) {
        if (remembered !== row.hash) {
          if (verified.size >= VERIFIED_PIN_CACHE_MAX) verified.delete(verified.keys().next().value!);
          verified.set(key, row.hash);
        }
        if (row.failed_attempts > 0) {
          await db.execute(sql`UPDATE user_pins SET failed_attempts = 0 WHERE user_id = ${userId} AND kind = ${kind}`);
        }
        return;
      }
      // Count the failure atomically; the fifth one sets a lock that doubles with each repeat.
      const r = await one<{ failed_attempts: number; lock_count: number }>(
        db,
        sql`UPDATE user_pins SET failed_attempts = failed_attempts + 1 WHERE user_id = ${userId} AND kind = ${kind}
            RETURNING failed_attempts, lock_count`,
      );
      if (r && r.failed_attempts >= PIN_MAX_ATTEMPTS) {
        const lockMs = PIN_LOCK_MS * 2 ** r.lock_count;
        await db.execute(sql`UPDATE user_pins SET failed_attempts = 0, lock_count = lock_count + 1,
                             locked_until = ${new Date(now.getTime() + lockMs)} WHERE user_id = ${userId} AND kind = ${kind}`);
        throw new AppError('PIN_LOCKED', `Too many wrong PINs; locked for ${lockMs / MINUTE} minutes`, { retryAfter: lockMs / 1000 });
      }
      throw new AppError(wrongCode, wrongCode === 'INVALID_PIN' ? 'The transaction PIN is wrong' : 'Wrong identifier or PIN');
    },
  };
}
