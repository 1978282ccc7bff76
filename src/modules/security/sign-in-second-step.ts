import { AppError } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import { activatePendingSession, isSignInPending } from '../identity/api.js';
import type { CodeSource } from './code-tries.js';
import { cancelNotMeRemoval } from './two-factor-removal.js';
import { recoveryCodesLeft, spendRecoveryCode } from './recovery-codes.js';
import type { TwoFactorDeps, TwoFactorFactor } from './two-factor-factor.js';

const TOTP_CODE = /^\d{6}$/;

const wrong = (recovery: boolean) =>
  new AppError(
    'OTP_INVALID',
    recovery ? 'That recovery code is wrong or was already used' : 'The code is wrong or has already been used; wait for the next one',
  );

/**
 * Issue 43: the sign-in's second step. A customer with two-factor on who signed in on a device the account does not
 * know holds a pending session (identity's PENDING_SECOND_FACTOR): it becomes active with the authenticator's current
 * code or one unused recovery code. Tries spend the authenticator's budget (code-tries.ts). A recovery code is spent,
 * the session activated and the owner told in one transaction; the device is known from now on (its cookie's tokens
 * are returned).
 */
export async function completeSignIn(deps: TwoFactorDeps, factor: TwoFactorFactor, user: AuthUser, code: string, meta: CodeSource) {
  const { db, clock, devices } = deps;
  const { codeTries, factorOf, acceptTotp } = factor;
  if (!user.sessionId || !(await isSignInPending(db, user.id, user.sessionId)))
    throw new AppError('CONFLICT', 'This sign-in is not waiting for a second factor');
  const key = codeTries.keyOf(user, (await codeTries.sourceOf(user, meta)).device);
  const tries = await codeTries.reserve(key);
  const recovery = !TOTP_CODE.test(code);
  const f = recovery ? undefined : await factorOf(user.id);
  if (!recovery && f?.confirmed_at) {
    const r = await acceptTotp(user.id, f, code, false, key);
    if (r !== 'ok') {
      if (r === 'replay') await codeTries.release(key);
      else await codeTries.fail(key, tries);
      throw wrong(false);
    }
  }
  const done = await db.transaction(async (tx) => {
    if (recovery || !f?.confirmed_at) {
      if (!recovery || !(await spendRecoveryCode(deps, tx, user.id, code))) return 'wrong' as const;
      await deps.notices.notify(tx, user.id, 'recovery_code_used', `${await recoveryCodesLeft(tx, user.id)} recovery codes are left.`, {
        everyChannel: true,
      });
    }
    return (await activatePendingSession(tx, user.id, user.sessionId!)) ? ('ok' as const) : ('ended' as const);
  });
  if (done === 'wrong') {
    await codeTries.fail(key, tries);
    throw wrong(recovery);
  }
  if (done === 'ended') throw new AppError('UNAUTHENTICATED', 'This sign-in has ended; sign in again');
  await codeTries.succeed(key);
  // Proving the authenticator cancels a removal asked for through "this wasn't me" (issue 28), as a step-up does.
  if (!recovery) await cancelNotMeRemoval(db, deps.work, user.id, clock.now());
  return {
    signedIn: true as const,
    usedRecoveryCode: recovery,
    recoveryCodesLeft: await recoveryCodesLeft(db, user.id),
    deviceTokens: await devices.remember(user.id, meta),
  };
}
