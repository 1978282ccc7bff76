import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import { sha256 } from '../../lib/crypto.js';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { issueGrant } from './step-up-methods.js';
import { GRANT_TTL_MS, type TwoFactorDeps, type TwoFactorFactor } from './two-factor-factor.js';

/** Step-up with an operator's passkey (issue 30): a verified assertion yields the same grant as an authenticator code. */
export async function verifyPasskey({ db, clock, passkeys }: TwoFactorDeps, user: AuthUser, assertion: AuthenticationResponseJSON) {
  await passkeys.verifyAssertion(user, assertion);
  return issueGrant(db, clock, user, 'passkey', GRANT_TTL_MS);
}

/** Ends one of the user's grants before it expires. */
export async function revokeGrant({ db, clock }: TwoFactorDeps, user: AuthUser, grantToken: string) {
  const g = await one<{ revoked_at: Date | null }>(
    db,
    sql`SELECT revoked_at FROM stepup_grants WHERE token_hash = ${sha256(grantToken)} AND user_id = ${user.id}`,
  );
  if (!g) throw new AppError('NOT_FOUND', 'Grant not found');
  if (!g.revoked_at)
    await db.execute(
      sql`UPDATE stepup_grants SET revoked_at = ${clock.now()} WHERE token_hash = ${sha256(grantToken)} AND revoked_at IS NULL`,
    );
  return { revoked: true };
}

/** The registry's gates.stepUp (docs/design.md §5): required only while TOTP is enrolled and confirmed. */
export async function requireStepUp(
  { isEnrolled, passkeyOn, grantValid }: TwoFactorFactor,
  user: AuthUser,
  grantToken: string | undefined,
) {
  if (!(user.twoFactor ?? (await isEnrolled(user.id))) && !(await passkeyOn(user))) return;
  if (!(await grantValid(user, grantToken))) {
    throw new AppError(
      'STEP_UP_REQUIRED',
      'Two-factor confirmation required: call verifyStepupChallenge and send its grantToken in X-Grant-Token',
    );
  }
}

/**
 * The registry's gates.reauth: credential changes need a recent proof beyond the access token,
 * whether or not 2FA is on: a grant from verifyStepupChallenge (authenticator code or e-mailed code).
 */
export async function requireReauth({ grantValid }: TwoFactorFactor, user: AuthUser, grantToken: string | undefined) {
  if (!(await grantValid(user, grantToken))) {
    throw new AppError(
      'STEP_UP_REQUIRED',
      'Confirm it is you first: get a code (sendStepupEmailCode, or your authenticator app), call verifyStepupChallenge and send its grantToken in X-Grant-Token',
    );
  }
}
