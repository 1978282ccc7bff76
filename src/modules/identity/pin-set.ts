import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import type { PinKind } from './pin-rules.js';
import { checkMac, hashPin, where, type PinDeps } from './pin-deps.js';

/** Whether the user has an enabled PIN of a kind. */
export async function isPinSet({ db }: PinDeps, userId: string, kind: PinKind) {
  const r = await one(db, sql`SELECT 1 FROM user_pins WHERE ${where(userId, kind)}`);
  return Boolean(r);
}

/** Sets (or replaces) a PIN: enabled, its tries and lock cleared. */
export async function setPin({ db, clock, pepper }: PinDeps, userId: string, kind: PinKind, pin: string) {
  const salt = randomBytes(16).toString('hex');
  const now = clock.now();
  await db.execute(sql`
    INSERT INTO user_pins (user_id, kind, hash, salt, check_mac, failed_attempts, lock_count, locked_until, enabled, updated_at)
    VALUES (${userId}, ${kind}, ${await hashPin(pepper, pin, salt)}, ${salt}, ${checkMac(pepper, userId, kind, pin)}, 0, 0, NULL, true, ${now})
    ON CONFLICT (user_id, kind) DO UPDATE SET hash = EXCLUDED.hash, salt = EXCLUDED.salt, check_mac = EXCLUDED.check_mac,
      failed_attempts = 0, locked_until = NULL, enabled = true, updated_at = EXCLUDED.updated_at`);
}

/** Sets a PIN only if the account never had one of this kind (disabled ones count); false when it had. */
export async function setFirstPin({ db, clock, pepper }: PinDeps, userId: string, kind: PinKind, pin: string) {
  const salt = randomBytes(16).toString('hex');
  const r = await one(
    db,
    sql`INSERT INTO user_pins (user_id, kind, hash, salt, check_mac, failed_attempts, lock_count, locked_until, enabled, updated_at)
        VALUES (${userId}, ${kind}, ${await hashPin(pepper, pin, salt)}, ${salt}, ${checkMac(pepper, userId, kind, pin)}, 0, 0, NULL, true, ${clock.now()})
        ON CONFLICT (user_id, kind) DO NOTHING RETURNING 1`,
  );
  return Boolean(r);
}

/** Disables the user's PIN of a kind. */
export async function disablePin({ db, clock }: PinDeps, userId: string, kind: PinKind) {
  await db.execute(sql`UPDATE user_pins SET enabled = false, updated_at = ${clock.now()} WHERE user_id = ${userId} AND kind = ${kind}`);
}
