import { sql } from 'drizzle-orm';
import { one, type Db } from '../../db/client.js';
import type { AuthUser } from '../../kernel/actor.js';
import type { Clock } from '../../kernel/clock.js';
import { uuid } from '../../kernel/ids.js';
import { randomToken, sha256 } from '../../lib/crypto.js';

/**
 * What verifyStepupChallenge can take in a session: the authenticator app's code, an e-mailed one, or (operators,
 * issue 30) a passkey assertion.
 */
export const STEP_UP_METHODS = ['authenticator', 'email', 'passkey'] as const;
export type StepUpMethod = (typeof STEP_UP_METHODS)[number];

/**
 * What verifyStepupChallenge accepts in the caller's session, so a client offers only that (issue 29: an e-mailed
 * code offered, then refused). Without a second factor: an e-mailed code. With an authenticator or an operator's
 * passkey: those, and an e-mailed code too only in a session opened with the login PIN (e-mail is never the only
 * factor while a second factor is on).
 */
export async function stepUpMethodsOf(db: Db, user: AuthUser, authenticatorOn: boolean, passkeyOn = false): Promise<StepUpMethod[]> {
  const strong: StepUpMethod[] = [...(authenticatorOn ? (['authenticator'] as const) : []), ...(passkeyOn ? (['passkey'] as const) : [])];
  if (!strong.length) return ['email'];
  if (!user.sessionId) return strong;
  const s = await one<{ method: string }>(db, sql`SELECT method FROM sessions WHERE id = ${user.sessionId}`);
  return s?.method === 'pin' ? [...strong, 'email'] : strong;
}

/** docs/design.md §5: a grant lives 10 minutes, bound to its user and session (GRANT_TTL_MS in two-factor-factor.ts). */
export async function issueGrant(db: Db, clock: Clock, user: AuthUser, method: 'totp' | 'email' | 'passkey', ttlMs: number) {
  const token = `grt_${randomToken(32)}`;
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + ttlMs);
  await db.execute(sql`INSERT INTO stepup_grants (id, token_hash, user_id, session_id, method, created_at, expires_at)
                       VALUES (${uuid()}, ${sha256(token)}, ${user.id}, ${user.sessionId}, ${method}, ${now}, ${expiresAt})`);
  return { grantToken: token, expiresAt: expiresAt.toISOString() };
}
