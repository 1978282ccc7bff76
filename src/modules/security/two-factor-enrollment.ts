import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import { encrypt } from '../../lib/crypto.js';
import type { CodeSource } from './code-tries.js';
import { newTotpSecret, totpUri } from './totp.js';
import { stepUpMethodsOf } from './step-up-methods.js';
import { deleteRecoveryCodes, recoveryCodesLeft, regenerateRecoveryCodes, replaceRecoveryCodes } from './recovery-codes.js';
import type { TwoFactorDeps, TwoFactorFactor } from './two-factor-factor.js';

/** The authenticator's setup: its state, a new secret, its confirmation with a first code, and turning it off. */
export function createTwoFactorEnrollment(deps: TwoFactorDeps, factor: TwoFactorFactor) {
  const { db, clock, encryptionKey, issuer } = deps;
  const { codeTries, factorOf, passkeyOn, grantValid, acceptTotp } = factor;
  return {
    async state(user: AuthUser, grantToken: string | undefined) {
      const f = await factorOf(user.id);
      const confirmed = Boolean(f?.confirmed_at);
      const stepUpMethods = await stepUpMethodsOf(db, user, confirmed, await passkeyOn(user));
      const recoveryCodes = confirmed ? await recoveryCodesLeft(db, user.id) : 0;
      return {
        enrolled: Boolean(f),
        confirmed,
        grantValid: await grantValid(user, grantToken),
        stepUpMethods,
        recoveryCodesLeft: recoveryCodes,
      };
    },

    /** A new pending secret replaces an unconfirmed one; a confirmed factor is never silently replaced. */
    async beginEnrollment(user: AuthUser) {
      const existing = await factorOf(user.id);
      if (existing?.confirmed_at) throw new AppError('CONFLICT', 'Two-factor authentication is already set up');
      const secret = newTotpSecret();
      const now = clock.now();
      const stored = await one(
        db,
        sql`INSERT INTO totp_factors (user_id, secret_enc, created_at, updated_at)
            VALUES (${user.id}, ${encrypt(encryptionKey, secret)}, ${now}, ${now})
            ON CONFLICT (user_id) DO UPDATE SET secret_enc = EXCLUDED.secret_enc, last_step = NULL,
              updated_at = EXCLUDED.updated_at
            WHERE totp_factors.confirmed_at IS NULL
            RETURNING 1`,
      );
      // Confirmed in another request meanwhile: never hand out a secret that was not stored.
      if (!stored) throw new AppError('CONFLICT', 'Two-factor authentication is already set up');
      const uri = totpUri(secret, user.email, issuer);
      return { uri, secret, qrDataUrl: await (await import('qrcode')).default.toDataURL(uri) };
    },

    async confirmEnrollment(user: AuthUser, code: string, meta: CodeSource = {}) {
      const f = await factorOf(user.id);
      if (!f) throw new AppError('CONFLICT', 'Start enrollment first (beginTotpEnrollment)');
      if (f.confirmed_at) throw new AppError('CONFLICT', 'Two-factor authentication is already set up');
      const key = codeTries.keyOf(user, (await codeTries.sourceOf(user, meta)).device);
      const tries = await codeTries.reserve(key);
      const r = await acceptTotp(user.id, f, code, true, key);
      if (r === 'wrong') await codeTries.fail(key, tries);
      if (r === 'replay') await codeTries.release(key);
      if (r !== 'ok') throw new AppError('OTP_INVALID', 'The code is wrong or has already been used');
      // Issue 43: the recovery codes are made with the confirmation and shown this once.
      const recoveryCodes = await db.transaction(async (tx) => {
        await deps.notices.notify(tx, user.id, 'totp_enrolled');
        return replaceRecoveryCodes(deps, tx, user.id);
      });
      return { enrolled: true, confirmed: true, recoveryCodes };
    },

    /** Issue 43: a new set of recovery codes replaces the old (the registry's reauth gate asks for a grant first). */
    regenerateRecoveryCodes: (user: AuthUser) => regenerateRecoveryCodes(deps, factorOf, user),

    /** Turns the authenticator off (the registry's reauth gate asks for a grant first). */
    async disable(user: AuthUser) {
      const removed = await db.transaction(async (tx) => {
        const r = await one(tx, sql`DELETE FROM totp_factors WHERE user_id = ${user.id} RETURNING confirmed_at IS NOT NULL AS confirmed`);
        if (!r) return false;
        await tx.execute(
          sql`UPDATE two_factor_resets SET cancelled_at = ${clock.now()} WHERE user_id = ${user.id} AND cancelled_at IS NULL AND completed_at IS NULL`,
        );
        await deleteRecoveryCodes(tx, user.id);
        await deps.notices.notify(tx, user.id, 'totp_removed');
        return true;
      });
      if (removed) deps.identity.forgetUser(user.id);
      return { enrolled: false, confirmed: false };
    },
  };
}
