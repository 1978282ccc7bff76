import { sql } from 'drizzle-orm';
import { one, type Db } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import { MINUTE, type Clock } from '../../kernel/clock.js';

/**
 * How long a session opened with an e-mailed sign-in code counts as the fresh proof for setting a first PIN: the
 * lifetime of a grant from an e-mailed step-up code, which is the same proof (issue 29, docs/decisions.md).
 */
export const FRESH_SIGN_IN_MS = 10 * MINUTE;

export type FirstCredentialProof = 'grant' | 'freshSignIn';

/**
 * Setting a FIRST PIN (transaction or login) right after signing in needs no second code (issue 29). A session opened
 * with an e-mailed code less than FRESH_SIGN_IN_MS ago proved the mailbox moments ago, as an e-mailed step-up code
 * would; so it stands in for the grant, for creating a PIN only. Changing a PIN, an older session, a session opened
 * otherwise, and an account with an authenticator (e-mail alone is never enough there) still need the grant.
 */
export function createFirstCredentialProof(deps: {
  db: Db;
  clock: Clock;
  grantValid(user: AuthUser, grantToken: string | undefined): Promise<boolean>;
  isEnrolled(userId: string): Promise<boolean>;
}) {
  const { db, clock } = deps;

  async function freshEmailSignIn(user: AuthUser): Promise<boolean> {
    if (!user.sessionId) return false;
    if (user.twoFactor ?? (await deps.isEnrolled(user.id))) return false;
    const s = await one<{ method: string; created_at: Date }>(
      db,
      sql`SELECT method, created_at FROM sessions WHERE id = ${user.sessionId} AND user_id = ${user.id} AND status = 'active'`,
    );
    return s?.method === 'email_otp' && clock.now().getTime() - new Date(s.created_at).getTime() < FRESH_SIGN_IN_MS;
  }

  return {
    /**
     * For a credential the account does not have yet: a valid grant, or a fresh e-mail-code session. With
     * `freshSignIn` the caller must only create the credential (pins.setFirst), never replace one set meanwhile.
     */
    async require(user: AuthUser, grantToken: string | undefined): Promise<FirstCredentialProof> {
      if (await deps.grantValid(user, grantToken)) return 'grant';
      if (await freshEmailSignIn(user)) return 'freshSignIn';
      throw stepUpRequired();
    },
  };
}

export type FirstCredential = ReturnType<typeof createFirstCredentialProof>;

export const stepUpRequired = () =>
  new AppError(
    'STEP_UP_REQUIRED',
    'Confirm it is you first: get a code (sendStepupEmailCode, or your authenticator app), call verifyStepupChallenge and send its grantToken in X-Grant-Token',
  );
