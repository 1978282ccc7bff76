import { sql } from 'drizzle-orm';
import { one, pipelinesAlone, rows } from '../../db/client.js';
import { pinCheckStatement, type PinChecked } from './pin-batch.js';
import { AppError } from '../../kernel/errors.js';
import { safeEqual } from '../../lib/crypto.js';
import { PIN_LOCK_MS, PIN_MAX_ATTEMPTS, pinLockedError, wrongPinError, type PinKind } from './pin-rules.js';
import { checkMac, hashPin, where, type PinDeps } from './pin-deps.js';

/** The limits the counting statement applies (pin-batch.ts). */
export const PIN_CHECK_OPTS = { maxAttempts: PIN_MAX_ATTEMPTS, lockSeconds: PIN_LOCK_MS / 1000 };

const lockedMessage = (until: Date, now: Date) => pinLockedError(Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000)), now);
const wrong = (code: 'INVALID_PIN' | 'INVALID_CREDENTIALS', failures?: number) =>
  wrongPinError(code, failures === undefined ? undefined : PIN_MAX_ATTEMPTS - failures);

/** After a refused check: no PIN, or locked (by this guess or by others). */
async function refusal({ db }: PinDeps, userId: string, kind: PinKind, now: Date): Promise<AppError> {
  const row = await one<{ locked_until: Date | null }>(db, sql`SELECT locked_until FROM user_pins WHERE ${where(userId, kind)}`);
  if (!row) return kind === 'login' ? wrong('INVALID_CREDENTIALS') : new AppError('PIN_NOT_SET', 'Set a transaction PIN first');
  const until = row.locked_until ? new Date(row.locked_until) : null;
  // Not locked but the budget is taken by checks still in flight (a row without its MAC yet): refuse as locked.
  return lockedMessage(until && until > now ? until : new Date(now.getTime() + PIN_LOCK_MS), now);
}

/** The lock a wrong guess that used the last try sets: failures start again, the lock doubles each time. */
const lockSql = (now: Date) => sql`${now}::timestamptz + make_interval(secs => ${PIN_LOCK_MS / 1000} * power(2, lock_count))`;

async function verifyWithScrypt(
  deps: PinDeps,
  userId: string,
  kind: PinKind,
  pin: string,
  wrongCode: 'INVALID_PIN' | 'INVALID_CREDENTIALS',
  now: Date,
) {
  const { db, pepper } = deps;
  // Reserve the attempt before comparing; refunded (reset) on success.
  const r = await one<{ hash: string; salt: string; failed_attempts: number }>(
    db,
    sql`UPDATE user_pins SET failed_attempts = failed_attempts + 1
        WHERE ${where(userId, kind)} AND check_mac IS NULL AND (locked_until IS NULL OR locked_until <= ${now}) AND failed_attempts < ${PIN_MAX_ATTEMPTS}
        RETURNING hash, salt, failed_attempts`,
  );
  if (!r) {
    const upgraded = await one(db, sql`SELECT 1 FROM user_pins WHERE ${where(userId, kind)} AND check_mac IS NOT NULL`);
    if (upgraded) return verifyPin(deps, userId, kind, pin, wrongCode);
    throw await refusal(deps, userId, kind, now);
  }
  if (safeEqual(r.hash, await hashPin(pepper, pin, r.salt))) {
    await db.execute(sql`UPDATE user_pins SET failed_attempts = 0, check_mac = ${checkMac(pepper, userId, kind, pin)}
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

/** Throws PIN_NOT_SET, PIN_LOCKED (429) or `wrongCode` on a wrong PIN. */
export async function verifyPin(
  deps: PinDeps,
  userId: string,
  kind: PinKind,
  pin: string,
  wrongCode: 'INVALID_PIN' | 'INVALID_CREDENTIALS' = 'INVALID_PIN',
): Promise<void> {
  const { db, clock, pepper, batcher } = deps;
  const now = clock.now();
  // One statement (pin-batch.ts): compare, count a failure or clear the count, and lock on the last try; with the
  // checks of other requests in the same turn (not inside a request's own transaction), or alone.
  const mac = checkMac(pepper, userId, kind, pin);
  const batched = batcher && pipelinesAlone(db) ? await batcher({ userId, kind, mac, now }) : 'alone';
  const r =
    batched !== 'alone'
      ? (batched ?? undefined)
      : (await rows<PinChecked>(db, pinCheckStatement([{ userId, kind, mac, now }], PIN_CHECK_OPTS)))[0];
  if (!r) {
    const legacy = await one(db, sql`SELECT 1 FROM user_pins WHERE ${where(userId, kind)} AND check_mac IS NULL`);
    if (legacy) return verifyWithScrypt(deps, userId, kind, pin, wrongCode, now);
  }
  if (!r) throw await refusal(deps, userId, kind, now);
  if (r.ok) return;
  if (r.locked_until) throw lockedMessage(new Date(r.locked_until), now);
  throw wrong(wrongCode, r.failed_attempts);
}

/** Compares without counting (PinService.matches); null when no PIN is set. */
export async function pinMatches({ db, pepper }: PinDeps, userId: string, kind: PinKind, pin: string): Promise<boolean | null> {
  const row = await one<{ check_mac: string | null; hash: string; salt: string }>(
    db,
    sql`SELECT check_mac, hash, salt FROM user_pins WHERE ${where(userId, kind)}`,
  );
  if (!row) return null;
  const mac = checkMac(pepper, userId, kind, pin);
  if (row.check_mac) return safeEqual(row.check_mac, mac);
  // A row from before the check MAC: scrypt once, and the MAC on success.
  if (!safeEqual(row.hash, await hashPin(pepper, pin, row.salt))) return false;
  await db.execute(sql`UPDATE user_pins SET check_mac = ${mac} WHERE ${where(userId, kind)} AND salt = ${row.salt}`);
  return true;
}
