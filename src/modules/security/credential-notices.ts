import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { DAY } from '../../kernel/clock.js';
import { CODE_TEXTS } from '../../kernel/code-texts.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { uuid } from '../../kernel/ids.js';
import { lagosTime, type CredentialChange, type CredentialNoticesDeps } from './credential-change.js';
import { notMe } from './not-me.js';

/**
 * Every credential change tells the owner by e-mail (the notifier's login_alert kind is always e-mailed)
 * with a "this wasn't me" link (in the e-mail only). Following it signs out every session, ends every step-up grant,
 * turns PIN login off, forgets every known device, and when the change was a new authenticator schedules its removal
 * after the reset wait (a requested two-factor reset is cancelled): whoever made the change is out. The link's token
 * is stored hashed and works once, for NOT_ME_TTL_MS.
 */
export type { CredentialChange } from './credential-change.js';

export const NOT_ME_TTL_MS = 7 * DAY;

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
  passkey_added: 'A passkey was added to your account',
  passkey_removed: 'A passkey was removed from your account',
  recovery_code_used: 'A recovery code was used to sign in',
  recovery_codes_regenerated: 'New recovery codes were made (the old ones no longer work)',
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

/** Inside the change's own transaction: the notice and its "this wasn't me" link's row are one change. */
async function notify(
  { clock, work, publicUrl }: CredentialNoticesDeps,
  exec: Executor,
  userId: string,
  change: CredentialChange,
  detail?: string,
  opts?: { everyChannel?: boolean; params?: Record<string, string> },
): Promise<void> {
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
      emailOnly: `${CODE_TEXTS.en.notMe}: ${publicUrl}${NOT_ME_PATH}?token=${token}`,
      ...(opts?.everyChannel ? { everyChannel: true } : {}),
    })
    .commit();
}

/** The notices of credential changes and their "this wasn't me" route (not-me.ts). */
export function createCredentialNotices(deps: CredentialNoticesDeps): CredentialNotices {
  return {
    notify: (exec, userId, change, detail, opts) => notify(deps, exec, userId, change, detail, opts),
    notMe: (token) => notMe(deps, token),
  };
}
