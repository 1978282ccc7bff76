import { sql } from 'drizzle-orm';
import { isUniqueViolation, one } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { getUser } from './accounts.js';
import type { IdentityDeps } from './deps.js';

/** Changes the caller's username, full name or phone (a changed phone is unverified again); returns the account. */
export async function updateProfile(
  { db, clock, sessionCache }: IdentityDeps,
  userId: string,
  patch: { username?: string; fullName?: string; phone?: string },
) {
  const now = clock.now();
  const current = (await getUser(db, userId))!;
  if (patch.username !== undefined && patch.username !== current.username) {
    const taken = await one(db, sql`SELECT 1 FROM users WHERE username = ${patch.username} AND id <> ${userId}`);
    if (taken) throw new AppError('USERNAME_TAKEN', 'That username is taken');
  }
  const phoneChanged = patch.phone !== undefined && patch.phone !== current.phone;
  try {
    await db.execute(sql`UPDATE users SET
        username = ${patch.username ?? current.username},
        full_name = ${patch.fullName ?? current.full_name},
        phone = ${patch.phone ?? current.phone},
        phone_verified_at = ${phoneChanged ? null : current.phone_verified_at},
        updated_at = ${now}
      WHERE id = ${userId}`);
  } catch (err) {
    // A concurrent update took the username between our check and the write: the unique index decides.
    if (isUniqueViolation(err, 'users_username_key')) {
      throw new AppError('USERNAME_TAKEN', 'That username is taken');
    }
    throw err;
  }
  if (patch.username !== undefined && patch.username !== current.username) sessionCache.forgetUser(userId);
  return (await getUser(db, userId))!;
}
