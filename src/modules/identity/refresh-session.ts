import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { getUser, grantedRolesOf, operatorRolesOf } from './accounts.js';
import type { IdentityUseCaseDeps } from './deps.js';

/** Trades a refresh token for new tokens of the same session (rotation: each refresh token works once). */
export async function refreshSession({ db, clock, config, tokens, sessionCache, operatorIdle }: IdentityUseCaseDeps, refreshToken: string) {
  const now = clock.now();
  const hash = sha256(refreshToken);
  const row = await one<{
    session_id: string;
    used_at: Date | null;
    expires_at: Date;
    status: string;
    user_id: string;
    session_expires_at: Date;
  }>(
    db,
    sql`SELECT r.session_id, r.used_at, r.expires_at, s.status, s.user_id, s.expires_at AS session_expires_at FROM refresh_tokens r
        JOIN sessions s ON s.id = r.session_id WHERE r.token_hash = ${hash}`,
  );
  if (!row) throw new AppError('UNAUTHENTICATED', 'Refresh token is not valid');
  if (row.status === 'superseded') throw new AppError('SESSION_SUPERSEDED', 'This session was ended by a sign-in on another device');
  if (row.status !== 'active') throw new AppError('UNAUTHENTICATED', 'This session has ended; sign in again');
  // Rotation: a refresh token works once. Reuse of a spent one means it leaked: end the whole family.
  const spent = await one(db, sql`UPDATE refresh_tokens SET used_at = ${now} WHERE token_hash = ${hash} AND used_at IS NULL RETURNING 1`);
  if (!spent) {
    await db.execute(sql`UPDATE sessions SET status = 'revoked', revoked_reason = 'refresh_reuse' WHERE id = ${row.session_id}`);
    sessionCache.forgetUser(row.user_id);
    throw new AppError('UNAUTHENTICATED', 'Refresh token was already used; the session has been ended for safety');
  }
  if (new Date(row.expires_at).getTime() <= now.getTime()) throw new AppError('UNAUTHENTICATED', 'Refresh token has expired');
  // A session lives SESSION_TTL_MS from sign-in, however often it is refreshed; the new refresh token
  // never outlives it.
  const sessionEnds = new Date(row.session_expires_at);
  if (sessionEnds.getTime() <= now.getTime()) throw new AppError('UNAUTHENTICATED', 'The session has expired; sign in again');
  const user = (await getUser(db, row.user_id))!;
  if (user.status !== 'active') throw new AppError('ACCOUNT_CLOSED', 'This account has been closed');
  // An operator's idle session ends here too, but a refresh is the app's own timer, not a person (operator-idle.ts).
  if (operatorRolesOf(config, user.email, await grantedRolesOf(db, user.id)).length)
    await operatorIdle.check(row.session_id, user.id, 'background');
  const refresh = randomToken(32);
  await db.execute(sql`INSERT INTO refresh_tokens (token_hash, session_id, created_at, expires_at)
                       VALUES (${sha256(refresh)}, ${row.session_id}, ${now},
                               ${new Date(Math.min(now.getTime() + config.auth.refreshTtlSeconds * 1000, sessionEnds.getTime()))})`);
  const access = await tokens.issueAccess(user.id, row.session_id);
  return {
    accessToken: access.token,
    refreshToken: refresh,
    tokenType: 'bearer' as const,
    expiresIn: access.expiresIn,
    expiresAt: access.expiresAt.toISOString(),
    user: { id: user.id, email: user.email, username: user.username },
  };
}
