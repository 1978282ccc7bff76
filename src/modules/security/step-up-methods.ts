import { sql } from 'drizzle-orm';
import { one, type Db } from '../../db/client.js';
import type { AuthUser } from '../../kernel/actor.js';

/** A code verifyStepupChallenge can take in a session: the authenticator app's, an e-mailed one, or both. */
export const STEP_UP_METHODS = ['authenticator', 'email'] as const;
export type StepUpMethod = (typeof STEP_UP_METHODS)[number];

/**
 * What verifyStepupChallenge accepts in the caller's session, so a client offers only that (issue 29: an e-mailed
 * code offered, then refused). Without an authenticator: an e-mailed code. With one: its code, and an e-mailed code
 * too only in a session opened with the login PIN (e-mail is never the only factor while an authenticator is on).
 */
export async function stepUpMethodsOf(db: Db, user: AuthUser, authenticatorOn: boolean): Promise<StepUpMethod[]> {
  if (!authenticatorOn) return ['email'];
  if (!user.sessionId) return ['authenticator'];
  const s = await one<{ method: string }>(db, sql`SELECT method FROM sessions WHERE id = ${user.sessionId}`);
  return s?.method === 'pin' ? ['authenticator', 'email'] : ['authenticator'];
}
