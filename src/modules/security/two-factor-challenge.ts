import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import { sha256 } from '../../lib/crypto.js';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { CodeSource } from './code-tries.js';
import { cancelNotMeRemoval } from './two-factor-removal.js';
import { issueGrant, stepUpMethodsOf } from './step-up-methods.js';
import { GRANT_TTL_MS, type TwoFactorDeps, type TwoFactorFactor } from './two-factor-factor.js';

/** Step-up: the e-mailed code, a challenge answered with a code or a passkey, its grant, and the registry's gates. */
export function createStepUpChallenge(deps: TwoFactorDeps, factor: TwoFactorFactor) {
  const { db, clock, otp, mailer } = deps;
  const { codeTries, factorOf, isEnrolled, passkeyOn, grantValid, acceptTotp, emailStepUpAllowed } = factor;
  return {
    /**
     * Always sends: the e-mailed code confirms a credential change (verifyStepupChallenge) and asks for or cancels
     * a two-factor reset. While an authenticator is on, it yields a grant only in a session opened with the login
     * PIN (emailStepUpAllowed), so e-mail is never the only factor.
     */
    async sendEmailCode(user: AuthUser, meta: { ip?: string } = {}) {
      const code = await otp.issue('stepup', user.email, meta.ip);
      await mailer.send({
        to: user.email,
        subject: 'Your security confirmation code',
        text: `Your confirmation code is ${code}. It expires in 10 minutes. If you did not ask for it, secure your account now.`,
      });
      // Sent even where it confirms nothing here (it asks for a reset); the answer says what this session may use.
      return {
        sent: true,
        expiresInSeconds: 600,
        stepUpMethods: await stepUpMethodsOf(db, user, await isEnrolled(user.id), await passkeyOn(user)),
      };
    },

    /** spec 4.3: the input is a TOTP code or an e-mailed step-up code (within emailStepUpAllowed); either yields a grant. */
    async verifyChallenge(user: AuthUser, code: string, meta: CodeSource = {}) {
      const f = await factorOf(user.id);
      const from = await codeTries.sourceOf(user, meta);
      const key = codeTries.keyOf(user, from.device);
      let method: 'totp' | 'email';
      if (f?.confirmed_at) {
        const tries = await codeTries.reserve(key);
        const totp = await acceptTotp(user.id, f, code, false, key);
        if (totp === 'replay') {
          await codeTries.release(key);
          throw new AppError('OTP_INVALID', 'The code is wrong or has already been used');
        }
        if (totp === 'ok') {
          method = 'totp';
          // Proving the authenticator cancels a removal asked for through "this wasn't me" (issue 28).
          await cancelNotMeRemoval(db, deps.work, user.id, clock.now());
        } else if (!(await emailStepUpAllowed(user, f))) {
          await codeTries.fail(key, tries);
          throw new AppError(
            'OTP_INVALID',
            'The authenticator code is wrong or has already been used (this session needs the app code, not an e-mailed one)',
          );
        } else {
          try {
            await otp.verify('stepup', user.email, code, from);
          } catch {
            await codeTries.fail(key, tries);
            throw new AppError('OTP_INVALID', 'The code is wrong or has already been used');
          }
          await codeTries.release(key);
          method = 'email';
        }
      } else {
        // An operator's passkey is a second factor: an e-mailed code alone then confirms only a PIN session.
        if (!(await emailStepUpAllowed(user, f)))
          throw new AppError('OTP_INVALID', 'This session needs your passkey (method "passkey"), not an e-mailed code');
        await otp.verify('stepup', user.email, code, from);
        method = 'email';
      }
      return issueGrant(db, clock, user, method, GRANT_TTL_MS);
    },

    /** Step-up with an operator's passkey (issue 30): a verified assertion yields the same grant as an authenticator code. */
    async verifyPasskey(user: AuthUser, assertion: AuthenticationResponseJSON) {
      await deps.passkeys.verifyAssertion(user, assertion);
      return issueGrant(db, clock, user, 'passkey', GRANT_TTL_MS);
    },

    async revokeGrant(user: AuthUser, grantToken: string) {
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
    },

    /** The registry's gates.stepUp (docs/design.md §5): required only while TOTP is enrolled and confirmed. */
    stepUp: {
      async require(user: AuthUser, grantToken: string | undefined): Promise<void> {
        if (!(user.twoFactor ?? (await isEnrolled(user.id))) && !(await passkeyOn(user))) return;
        if (!(await grantValid(user, grantToken))) {
          throw new AppError(
            'STEP_UP_REQUIRED',
            'Two-factor confirmation required: call verifyStepupChallenge and send its grantToken in X-Grant-Token',
          );
        }
      },
    },

    /**
     * The registry's gates.reauth: credential changes need a recent proof beyond the access token,
     * whether or not 2FA is on: a grant from verifyStepupChallenge (authenticator code or e-mailed code).
     */
    reauth: {
      async require(user: AuthUser, grantToken: string | undefined): Promise<void> {
        if (!(await grantValid(user, grantToken))) {
          throw new AppError(
            'STEP_UP_REQUIRED',
            'Confirm it is you first: get a code (sendStepupEmailCode, or your authenticator app), call verifyStepupChallenge and send its grantToken in X-Grant-Token',
          );
        }
      },
    },
  };
}
