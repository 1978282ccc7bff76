import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import { HOUR } from '../../kernel/clock.js';
import { uuid } from '../../kernel/ids.js';
import type { CodeSource } from './code-tries.js';
import { TWO_FACTOR_RESET_WAIT_MS } from './two-factor-removal.js';
import { deleteRecoveryCodes } from './recovery-codes.js';
import type { TwoFactorDeps, TwoFactorFactor } from './two-factor-factor.js';

/** The authenticator's reset: asked for and cancelled by the owner with e-mailed codes, or made by an operator. */
export function createTwoFactorResets(deps: TwoFactorDeps, factor: TwoFactorFactor) {
  const { db, clock, otp } = deps;
  const { codeTries, factorOf } = factor;
  return {
    /**
     * The owner's way back when the authenticator is lost (or was set up by someone else): an e-mailed code
     * (sendStepupEmailCode) asks for the reset, which takes effect TWO_FACTOR_RESET_WAIT_MS later unless cancelled;
     * the owner is told at once and again when it is done.
     */
    async requestReset(user: AuthUser, code: string, meta: CodeSource = {}) {
      const f = await factorOf(user.id);
      if (!f?.confirmed_at) throw new AppError('CONFLICT', 'Two-factor authentication is not set up; there is nothing to reset');
      await otp.verify('stepup', user.email, code, await codeTries.sourceOf(user, meta));
      const now = clock.now();
      const effectiveAt = new Date(now.getTime() + TWO_FACTOR_RESET_WAIT_MS);
      const row = await db.transaction(async (tx) => {
        const created = await one<{ effective_at: Date }>(
          tx,
          sql`INSERT INTO two_factor_resets (id, user_id, requested_at, effective_at) VALUES (${uuid()}, ${user.id}, ${now}, ${effectiveAt})
              ON CONFLICT (user_id) WHERE cancelled_at IS NULL AND completed_at IS NULL DO NOTHING RETURNING effective_at`,
        );
        if (!created) {
          return one<{ effective_at: Date }>(
            tx,
            sql`SELECT effective_at FROM two_factor_resets WHERE user_id = ${user.id} AND cancelled_at IS NULL AND completed_at IS NULL`,
          );
        }
        const when = new Date(effectiveAt.getTime() + HOUR).toISOString().replace('T', ' ').slice(0, 16);
        await deps.notices.notify(
          tx,
          user.id,
          'totp_reset_requested',
          `Two-factor authentication will be turned off on ${when} (Lagos time) unless the reset is cancelled with a code sent to this e-mail address.`,
          { params: { resetAt: when } },
        );
        return created;
      });
      return { resetAt: new Date(row!.effective_at).toISOString() };
    },

    /** Cancels a pending reset; needs an e-mailed code, like the request (the authenticator may be the intruder's). */
    async cancelReset(user: AuthUser, code: string, meta: CodeSource = {}) {
      await otp.verify('stepup', user.email, code, await codeTries.sourceOf(user, meta));
      const r = await one(
        db,
        sql`UPDATE two_factor_resets SET cancelled_at = ${clock.now()}
            WHERE user_id = ${user.id} AND cancelled_at IS NULL AND completed_at IS NULL RETURNING 1`,
      );
      if (!r) throw new AppError('NOT_FOUND', 'No two-factor reset is pending');
      return { cancelled: true };
    },

    /** The operator's reset (BearerAdmin), for an owner who lost the authenticator and proved who they are (the registry audits the call). */
    async adminReset(_admin: AuthUser, userId: string, _reason: string) {
      const now = clock.now();
      const removed = await db.transaction(async (tx) => {
        const r = await one(tx, sql`DELETE FROM totp_factors WHERE user_id = ${userId} RETURNING 1`);
        // An operator who lost their passkeys is recovered the same way (issue 30): all of them go too.
        const keys = await one(tx, sql`DELETE FROM passkeys WHERE user_id = ${userId} RETURNING 1`);
        if (!r && !keys) return false;
        await deleteRecoveryCodes(tx, userId);
        await tx.execute(
          sql`UPDATE two_factor_resets SET completed_at = ${now} WHERE user_id = ${userId} AND cancelled_at IS NULL AND completed_at IS NULL`,
        );
        await deps.notices.notify(tx, userId, 'totp_reset_done', 'An operator turned it off at your request.');
        return true;
      });
      if (!removed) throw new AppError('NOT_FOUND', 'That user has no two-factor authentication set up');
      deps.identity.forgetUser(userId);
      return { reset: true };
    },
  };
}
