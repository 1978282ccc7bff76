import { createHmac, randomBytes, scrypt } from 'node:crypto';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { one, pipelinesAlone, rows, type Db } from '../../db/client.js';
import { pinCheckBatcher, pinCheckStatement, type PinChecked } from './pin-batch.js';
import { AppError } from '../../kernel/errors.js';
import { MINUTE, type Clock } from '../../kernel/clock.js';
import { safeEqual } from '../../lib/crypto.js';

/**
 * PINs (docs/design.md §5): 5 wrong tries lock that PIN for 15 minutes, doubling on each repeat lock. Transaction PIN 4
 * digits, login PIN 6 digits.
 *
 * The check and the count are one statement. A PIN is stored twice: as scrypt over pepper +
 * per-row salt (`hash`, docs/design.md §5) and as a check MAC, HMAC-SHA256 keyed by the pepper over (kind, user, PIN)
 * (`check_mac`). verify compares the MAC inside the UPDATE that counts the failure and sets the lock, under the
 * row's lock, so parallel guesses are checked one at a time and none is checked while the PIN is locked: at most
 * PIN_MAX_ATTEMPTS wrong guesses per lock, however many arrive at once. The user id in the MAC makes it unique per
 * account; a new PIN gets a new MAC. Without the pepper neither value can be
 * brute-forced from a database dump; with it, 10,000 candidates are quick to try against either (docs/security.md):
 * the attempt lock is the protection. A row written before the MAC existed is checked once with scrypt, the attempt
 * reserved before the comparison, and gets its MAC on success.
 */
export type PinKind = 'transaction' | 'login';
export const PIN_MAX_ATTEMPTS = 5;
export const PIN_LOCK_MS = 15 * MINUTE;

/**
 * The refusals of a PIN check, with what a client needs to say it in its own words (issue 29): `details.triesLeft`
 * on a wrong PIN, `details.lockedUntil` (and `triesLeft: 0`) on a lock. Also used by PIN login for identifiers
 * without a PIN, so both answers stay alike.
 */
export function wrongPinError(code: 'INVALID_PIN' | 'INVALID_CREDENTIALS', triesLeft?: number): AppError {
  const base = code === 'INVALID_PIN' ? 'The transaction PIN is wrong' : 'Wrong identifier or PIN';
  if (triesLeft === undefined) return new AppError(code, base);
  const left = Math.max(0, triesLeft);
  return new AppError(code, `${base}; ${left} ${left === 1 ? 'try' : 'tries'} left before it locks`, { details: { triesLeft: left } });
}

export function pinLockedError(retryAfterSeconds: number, now: Date): AppError {
  const s = Math.max(1, Math.ceil(retryAfterSeconds));
  return new AppError('PIN_LOCKED', `Too many wrong PINs; try again in ${Math.ceil(s / 60)} minutes`, {
    retryAfter: s,
    details: { triesLeft: 0, lockedUntil: new Date(now.getTime() + s * 1000).toISOString() },
  });
}

export interface PinService {
  isSet(userId: string, kind: PinKind): Promise<boolean>;
  set(userId: string, kind: PinKind, pin: string): Promise<void>;
  /** Sets a PIN only if the account never had one of this kind (disabled ones count); false when it had. */
  setFirst(userId: string, kind: PinKind, pin: string): Promise<boolean>;
  disable(userId: string, kind: PinKind): Promise<void>;
  /** Throws PIN_NOT_SET, PIN_LOCKED (429) or `wrongCode` on a wrong PIN. */
  verify(userId: string, kind: PinKind, pin: string, wrongCode?: 'INVALID_PIN' | 'INVALID_CREDENTIALS'): Promise<void>;
  /**
   * Compares without counting: for a caller that reserved the try in an attempt budget of its own first (login PINs,
   * one budget per known device and one for unrecognised sources: issue #28). null when no PIN is set.
   */
  matches(userId: string, kind: PinKind, pin: string): Promise<boolean | null>;
}

export function createPinService({
  db,
  clock,
  pepper,
  batchMax = 1,
}: {
  db: Db;
  clock: Clock;
  pepper: string;
  /** > 1: the checks of concurrent requests made by one statement on a PostgreSQL pool (pin-batch.ts). */
  batchMax?: number;
}): PinService {
  const pinOpts = { maxAttempts: PIN_MAX_ATTEMPTS, lockSeconds: PIN_LOCK_MS / 1000 };
  const batcher = batchMax > 1 ? pinCheckBatcher(db, { max: batchMax, ...pinOpts }) : null;
  // Asynchronous scrypt runs on libuv's thread pool, off the event loop; only set() and rows from before
  // the check MAC use it.
  const scryptAsync = promisify(scrypt) as (
    password: string,
    salt: string,
    keylen: number,
    opts: { N: number; r: number; p: number },
  ) => Promise<Buffer>;
  const hashPin = async (pin: string, salt: string) =>
    (await scryptAsync(`${pepper}:${pin}`, salt, 32, { N: 1024, r: 8, p: 1 })).toString('hex');
  const checkMac = (userId: string, kind: PinKind, pin: string) =>
    createHmac('sha256', pepper).update(`pin-check\n${kind}\n${userId}\n${pin}`).digest('hex');
  const where = (userId: string, kind: PinKind) => sql`user_id = ${userId} AND kind = ${kind} AND enabled`;
  const lockedMessage = (until: Date, now: Date) => pinLockedError(Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000)), now);
  const wrong = (code: 'INVALID_PIN' | 'INVALID_CREDENTIALS', failures?: number) =>
    wrongPinError(code, failures === undefined ? undefined : PIN_MAX_ATTEMPTS - failures);

  /** After a refused check: no PIN, or locked (by this guess or by others). */
  async function refusal(userId: string, kind: PinKind, now: Date): Promise<AppError> {
    const row = await one<{ locked_until: Date | null }>(db, sql`SELECT locked_until FROM user_pins WHERE ${where(userId, kind)}`);
    if (!row) return kind === 'login' ? wrong('INVALID_CREDENTIALS') : new AppError('PIN_NOT_SET', 'Set a transaction PIN first');
    const until = row.locked_until ? new Date(row.locked_until) : null;
    // Not locked but the budget is taken by checks still in flight (a row without its MAC yet): refuse as locked.
    return lockedMessage(until && until > now ? until : new Date(now.getTime() + PIN_LOCK_MS), now);
  }

  /** The lock a wrong guess that used the last try sets: failures start again, the lock doubles each time. */
  const lockSql = (now: Date) => sql`${now}::timestamptz + make_interval(secs => ${PIN_LOCK_MS / 1000} * power(2, lock_count))`;

  async function verifyWithScrypt(userId: string, kind: PinKind, pin: string, wrongCode: 'INVALID_PIN' | 'INVALID_CREDENTIALS', now: Date) {
    // Reserve the attempt before comparing; refunded (reset) on success.
    const r = await one<{ hash: string; salt: string; failed_attempts: number }>(
      db,
      sql`UPDATE user_pins SET failed_attempts = failed_attempts + 1
          WHERE ${where(userId, kind)} AND check_mac IS NULL AND (locked_until IS NULL OR locked_until <= ${now}) AND failed_attempts < ${PIN_MAX_ATTEMPTS}
          RETURNING hash, salt, failed_attempts`,
    );
    if (!r) {
      const upgraded = await one(db, sql`SELECT 1 FROM user_pins WHERE ${where(userId, kind)} AND check_mac IS NOT NULL`);
      if (upgraded) return verify(userId, kind, pin, wrongCode);
      throw await refusal(userId, kind, now);
    }
    if (safeEqual(r.hash, await hashPin(pin, r.salt))) {
      await db.execute(sql`UPDATE user_pins SET failed_attempts = 0, check_mac = ${checkMac(userId, kind, pin)}
                           WHERE ${where(userId, kind)} AND salt = ${r.salt}`);
      return;
    }
    if (r.failed_attempts >= PIN_MAX_ATTEMPTS) {
      const locked = await one<{ locked_until: Date }>(
        db,
        sql`UPDATE user_pins SET failed_attempts = 0, lock_count = lock_count + 1, locked_until = ${lockSql(now)}
            WHERE ${where(userId, kind)} RETURNING locked_until`,
      );
      if (locked) throw lockedMessage(new Date(locked.locked_until), now);
    }
    throw wrong(wrongCode, r.failed_attempts);
  }

  async function verify(
    userId: string,
    kind: PinKind,
    pin: string,
    wrongCode: 'INVALID_PIN' | 'INVALID_CREDENTIALS' = 'INVALID_PIN',
  ): Promise<void> {
    const now = clock.now();
    // One statement (pin-batch.ts): compare, count a failure or clear the count, and lock on the last try; with the
    // checks of other requests in the same turn (not inside a request's own transaction), or alone.
    const mac = checkMac(userId, kind, pin);
    const batched = batcher && pipelinesAlone(db) ? await batcher({ userId, kind, mac, now }) : 'alone';
    const r =
      batched !== 'alone'
        ? (batched ?? undefined)
        : (await rows<PinChecked>(db, pinCheckStatement([{ userId, kind, mac, now }], pinOpts)))[0];
    if (!r) {
      const legacy = await one(db, sql`SELECT 1 FROM user_pins WHERE ${where(userId, kind)} AND check_mac IS NULL`);
      if (legacy) return verifyWithScrypt(userId, kind, pin, wrongCode, now);
    }
    if (!r) throw await refusal(userId, kind, now);
    if (r.ok) return;
    if (r.locked_until) throw lockedMessage(new Date(r.locked_until), now);
    throw wrong(wrongCode, r.failed_attempts);
  }

  return {
    verify,
    async matches(userId, kind, pin) {
      const row = await one<{ check_mac: string | null; hash: string; salt: string }>(
        db,
        sql`SELECT check_mac, hash, salt FROM user_pins WHERE ${where(userId, kind)}`,
      );
      if (!row) return null;
      const mac = checkMac(userId, kind, pin);
      if (row.check_mac) return safeEqual(row.check_mac, mac);
      // A row from before the check MAC: scrypt once, and the MAC on success.
      if (!safeEqual(row.hash, await hashPin(pin, row.salt))) return false;
      await db.execute(sql`UPDATE user_pins SET check_mac = ${mac} WHERE ${where(userId, kind)} AND salt = ${row.salt}`);
      return true;
    },
    async isSet(userId, kind) {
      const r = await one(db, sql`SELECT 1 FROM user_pins WHERE ${where(userId, kind)}`);
      return Boolean(r);
    },
    async set(userId, kind, pin) {
      const salt = randomBytes(16).toString('hex');
      const now = clock.now();
      await db.execute(sql`
        INSERT INTO user_pins (user_id, kind, hash, salt, check_mac, failed_attempts, lock_count, locked_until, enabled, updated_at)
        VALUES (${userId}, ${kind}, ${await hashPin(pin, salt)}, ${salt}, ${checkMac(userId, kind, pin)}, 0, 0, NULL, true, ${now})
        ON CONFLICT (user_id, kind) DO UPDATE SET hash = EXCLUDED.hash, salt = EXCLUDED.salt, check_mac = EXCLUDED.check_mac,
          failed_attempts = 0, locked_until = NULL, enabled = true, updated_at = EXCLUDED.updated_at`);
    },
    async setFirst(userId, kind, pin) {
      const salt = randomBytes(16).toString('hex');
      const r = await one(
        db,
        sql`INSERT INTO user_pins (user_id, kind, hash, salt, check_mac, failed_attempts, lock_count, locked_until, enabled, updated_at)
            VALUES (${userId}, ${kind}, ${await hashPin(pin, salt)}, ${salt}, ${checkMac(userId, kind, pin)}, 0, 0, NULL, true, ${clock.now()})
            ON CONFLICT (user_id, kind) DO NOTHING RETURNING 1`,
      );
      return Boolean(r);
    },
    async disable(userId, kind) {
      await db.execute(sql`UPDATE user_pins SET enabled = false, updated_at = ${clock.now()} WHERE user_id = ${userId} AND kind = ${kind}`);
    },
  };
}
