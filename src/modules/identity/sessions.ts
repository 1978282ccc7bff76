import { sql } from 'drizzle-orm';
import { one, type Executor } from '../../db/client.js';
import { DAY } from '../../kernel/clock.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { uuid } from '../../kernel/ids.js';
import type { IdentityDeps, SessionView } from './deps.js';

export const SESSION_TTL_MS = 30 * DAY;

/**
 * Issue 43: a session opened on a device the account does not know, by a customer with two-factor on. Its tokens
 * answer SECOND_FACTOR_REQUIRED to every operation but completeSignIn and signOut until the second factor is passed.
 */
export const PENDING_SECOND_FACTOR = 'pending_second_factor';

/** Opens a session and returns the session object of docs/design.md §5. */
export async function openSession(
  { db, clock, config, tokens }: IdentityDeps,
  user: { id: string; email: string; username: string | null },
  method: string,
  meta: { ip?: string; userAgent?: string } = {},
  pending = false,
): Promise<SessionView> {
  const now = clock.now();
  const sessionId = uuid();
  const refresh = randomToken(32);
  await db.transaction(async (tx) => {
    await tx.execute(sql`INSERT INTO sessions (id, user_id, status, method, user_agent, ip, created_at, expires_at)
                         VALUES (${sessionId}, ${user.id}, ${pending ? PENDING_SECOND_FACTOR : 'active'}, ${method}, ${meta.userAgent ?? null}, ${meta.ip ?? null}, ${now}, ${new Date(now.getTime() + SESSION_TTL_MS)})`);
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
    ...(pending ? { secondFactorRequired: true } : {}),
  };
}

/** Whether the session waits for its second factor (issue 43). */
export async function isSignInPending(exec: Executor, userId: string, sessionId: string): Promise<boolean> {
  const r = await one(
    exec,
    sql`SELECT 1 FROM sessions WHERE id = ${sessionId} AND user_id = ${userId} AND status = ${PENDING_SECOND_FACTOR}`,
  );
  return Boolean(r);
}

/** The second factor was passed (security's completeSignIn), inside its transaction: the session becomes active. */
export async function activatePendingSession(exec: Executor, userId: string, sessionId: string): Promise<boolean> {
  const r = await one(
    exec,
    sql`UPDATE sessions SET status = 'active' WHERE id = ${sessionId} AND user_id = ${userId} AND status = ${PENDING_SECOND_FACTOR} RETURNING 1`,
  );
  return Boolean(r);
}

/** Ends the caller's session (none: an external token's, nothing to end). */
export async function signOut({ db, sessionCache }: IdentityDeps, sessionId: string | null, userId: string) {
  if (!sessionId) return;
  await db.execute(
    sql`UPDATE sessions SET status = 'revoked', revoked_reason = 'sign_out' WHERE id = ${sessionId} AND status IN ('active', ${PENDING_SECOND_FACTOR})`,
  );
  sessionCache.forgetUser(userId);
}
