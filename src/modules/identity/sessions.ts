import { sql } from 'drizzle-orm';
import { DAY } from '../../kernel/clock.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { uuid } from '../../kernel/ids.js';
import type { IdentityDeps, SessionView } from './deps.js';

export const SESSION_TTL_MS = 30 * DAY;

/** Opens a session and returns the session object of docs/design.md §5. */
export async function openSession(
  { db, clock, config, tokens }: IdentityDeps,
  user: { id: string; email: string; username: string | null },
  method: string,
  meta: { ip?: string; userAgent?: string } = {},
): Promise<SessionView> {
  const now = clock.now();
  const sessionId = uuid();
  const refresh = randomToken(32);
  await db.transaction(async (tx) => {
    await tx.execute(sql`INSERT INTO sessions (id, user_id, status, method, user_agent, ip, created_at, expires_at)
                         VALUES (${sessionId}, ${user.id}, 'active', ${method}, ${meta.userAgent ?? null}, ${meta.ip ?? null}, ${now}, ${new Date(now.getTime() + SESSION_TTL_MS)})`);
    await tx.execute(sql`INSERT INTO refresh_tokens (token_hash, session_id, created_at, expires_at)
                         VALUES (${sha256(refresh)}, ${sessionId}, ${now}, ${new Date(now.getTime() + config.auth.refreshTtlSeconds * 1000)})`);
  });
  const access = await tokens.issueAccess(user.id, sessionId);
  return {
    accessToken: access.token,
    refreshToken: refresh,
    tokenType: 'bearer',
    expiresIn: access.expiresIn,
    expiresAt: access.expiresAt.toISOString(),
    user: { id: user.id, email: user.email, username: user.username },
  };
}

/** Ends the caller's session (none: an external token's, nothing to end). */
export async function signOut({ db, sessionCache }: IdentityDeps, sessionId: string | null, userId: string) {
  if (!sessionId) return;
  await db.execute(sql`UPDATE sessions SET status = 'revoked', revoked_reason = 'sign_out' WHERE id = ${sessionId} AND status = 'active'`);
  sessionCache.forgetUser(userId);
}
