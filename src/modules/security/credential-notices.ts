import { sql } from 'drizzle-orm';
import { one, type Db, type Executor } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { DAY, type Clock } from '../../kernel/clock.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { uuid } from '../../kernel/ids.js';
import type { Work } from '../../platform/change.js';
import { writeAudit } from '../../db/audit.js';
import { scheduleTotpRemoval } from './two-factor-removal.js';
import { forgetKnownDevices } from '../identity/api.js';
import { CREDENTIAL_CHANGES } from '../../kernel/notices.js';

/**
 * Every credential change tells the owner by e-mail (the notifier's login_alert kind is always e-mailed)
 * with a "this wasn't me" link (in the e-mail only). Following it signs out every session, ends every step-up grant,
 * turns PIN login off, forgets every known device, and when the change was a new authenticator schedules its removal
 * after the reset wait (a requested two-factor reset is cancelled): whoever made the change is out. The link's token
 * is stored hashed and works once, for NOT_ME_TTL_MS.
 */
export type CredentialChange = (typeof CREDENTIAL_CHANGES)[number];

export const NOT_ME_TTL_MS = 7 * DAY;

const lagosTime = (at: Date) => new Date(at.getTime() + 3_600_000).toISOString().replace('T', ' ').slice(0, 16);
export const NOT_ME_PATH = '/api/public/not-me';

const WHAT: Record<CredentialChange, string> = {
  login_pin_set: 'A login PIN was set up',
  login_pin_changed: 'Your login PIN was changed',
  login_pin_disabled: 'PIN login was turned off',
  transaction_pin_set: 'A transaction PIN was set up',
  transaction_pin_changed: 'Your transaction PIN was changed',
  totp_enrolled: 'An authenticator app was set up for two-factor authentication',
  totp_removed: 'Two-factor authentication was turned off',
  totp_reset_requested: 'A reset of two-factor authentication was requested',
  totp_reset_done: 'Two-factor authentication was reset',
  phone_changed: 'Your phone number was changed',
  passkey_added: 'A passkey was added to your operator account',
  passkey_removed: 'A passkey was removed from your operator account',
};

export interface CredentialNotices {
  /**
   * Inside the change's own transaction: the notice exists only if the change commits. `detail` adds a sentence;
   * `opts.params` adds the facts a translation words it from (totp_reset_requested: resetAt, in Lagos time).
   */
  notify(
    exec: Executor,
    userId: string,
    change: CredentialChange,
    detail?: string,
    opts?: { everyChannel?: boolean; params?: Record<string, string> },
  ): Promise<void>;
  /** The "this wasn't me" route. */
  notMe(token: string): Promise<{ signedOut: boolean }>;
}

export function createCredentialNotices(deps: {
  db: Db;
  clock: Clock;
  work: Work;
  publicUrl: string;
  forgetUser(userId: string): void;
}): CredentialNotices {
  const { db, clock, work, publicUrl } = deps;

  return {
    async notify(exec, userId, change, detail, opts) {
      const now = clock.now();
      const token = `nme_${randomToken(32)}`;
      const body = [
        `${WHAT[change]} on your account on ${lagosTime(now)} (Lagos time).`,
        ...(detail ? [detail] : []),
        `If this wasn't you, use the "this wasn't me" link in the e-mail we sent to your address about this change, within 7 days: it signs you out everywhere and undoes the sign-in settings that were changed.`,
      ].join('\n');
      // Issue 28: the link goes to the mailbox only. The inbox and push can be reached by another session (a push
      // endpoint registered with a stolen token), and the link needs nothing else to sign the owner out everywhere.
      // The link's row and the notice are one change (the notice exists only if the caller's change commits).
      await work
        .change(exec)
        .write(
          (each) => sql`INSERT INTO credential_notices (id, user_id, token_hash, change, created_at, expires_at)
                        SELECT ${uuid()}::uuid, ${userId}::uuid, ${sha256(token)}::text, ${change}::text, ${now}::timestamptz,
                               ${new Date(now.getTime() + NOT_ME_TTL_MS)}::timestamptz FROM ${each}`,
        )
        .notify({
          userId,
          kind: 'login_alert',
          title: `Security: ${WHAT[change]}`,
          body,
          // The facts the notice is worded from in the owner's language (issue 29).
          data: { event: 'credential', change, when: lagosTime(now), ...(opts?.params ?? {}) },
          emailOnly: `This wasn't me: ${publicUrl}${NOT_ME_PATH}?token=${token}`,
          ...(opts?.everyChannel ? { everyChannel: true } : {}),
        })
        .commit();
    },

    async notMe(token) {
      if (!/^nme_[A-Za-z0-9_-]{20,100}$/.test(token)) throw new AppError('NOT_FOUND', 'This link is not valid');
      const now = clock.now();
      const userId = await db.transaction(async (tx) => {
        const n = await one<{ user_id: string; change: CredentialChange; created_at: Date }>(
          tx,
          sql`UPDATE credential_notices SET used_at = ${now}
              WHERE token_hash = ${sha256(token)} AND used_at IS NULL AND expires_at > ${now}
              RETURNING user_id, change, created_at`,
        );
        if (!n) return null;
        await tx.execute(
          sql`UPDATE sessions SET status = 'revoked', revoked_reason = 'not_me' WHERE user_id = ${n.user_id} AND status = 'active'`,
        );
        await tx.execute(sql`UPDATE stepup_grants SET revoked_at = ${now} WHERE user_id = ${n.user_id} AND revoked_at IS NULL`);
        await tx.execute(sql`UPDATE user_pins SET enabled = false, updated_at = ${now} WHERE user_id = ${n.user_id} AND kind = 'login'`);
        // The intruder's browser signed in too: it must not keep an attempt budget of its own (issue 28).
        await forgetKnownDevices(tx, n.user_id);
        // Issue 28: whoever reads the mailbox holds this link, so it never removes a confirmed authenticator at once: the
        // removal is scheduled like the owner's reset (the same wait), and the owner can cancel it with the app.
        const removal = n.change === 'totp_enrolled' ? await scheduleTotpRemoval(tx, n.user_id, now) : null;
        // An operator's passkey added with the change reported (issue 30) goes at once: it is only the new one(s), so
        // the owner loses nothing they had, and registers again after signing in.
        if (n.change === 'passkey_added')
          await tx.execute(sql`DELETE FROM operator_passkeys WHERE user_id = ${n.user_id} AND created_at >= ${n.created_at}`);
        if (n.change === 'totp_reset_requested') {
          await tx.execute(
            sql`UPDATE two_factor_resets SET cancelled_at = ${now} WHERE user_id = ${n.user_id} AND cancelled_at IS NULL AND completed_at IS NULL`,
          );
        }
        await writeAudit(tx, {
          actorId: n.user_id,
          action: 'security.not_me',
          subjectType: 'user',
          subjectId: n.user_id,
          details: { change: n.change },
          at: now,
        });
        await work
          .change(tx)
          .notify({
            userId: n.user_id,
            kind: 'login_alert',
            title: 'Security: you were signed out everywhere',
            body: [
              'You reported a change you did not make. Every session was signed out and PIN login was turned off. Sign in again with a code sent to this e-mail address, then review your PINs and two-factor settings.',
              ...(removal
                ? [
                    `The authenticator app will be removed from your account on ${lagosTime(removal)} (Lagos time). If you set it up yourself, sign in and cancel the removal with a code from that app.`,
                  ]
                : []),
            ].join('\n'),
            data: { event: 'signed_out', change: n.change, ...(removal ? { removalAt: lagosTime(removal) } : {}) },
            // The owner must learn of a scheduled removal wherever they are (someone with the mailbox may have asked for it).
            everyChannel: Boolean(removal),
          })
          .commit();
        return n.user_id;
      });
      if (!userId) throw new AppError('NOT_FOUND', 'This link is not valid, was already used or has expired');
      deps.forgetUser(userId);
      return { signedOut: true };
    },
  };
}
