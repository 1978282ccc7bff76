import { sql } from 'drizzle-orm';
import { one, type Executor } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { sha256 } from '../../lib/crypto.js';
import { writeAudit } from '../../db/audit.js';
import { scheduleTotpRemoval } from './two-factor-removal.js';
import { forgetKnownDevices } from '../identity/api.js';
import { lagosTime, type CredentialChange, type CredentialNoticesDeps } from './credential-change.js';

/** The "this wasn't me" route: signs the owner out everywhere and undoes the sign-in settings (credential-notices.ts). */
export async function notMe(deps: CredentialNoticesDeps, token: string): Promise<{ signedOut: boolean }> {
  const { db, clock } = deps;
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
    await undoChange(deps, tx, n, now);
    return n.user_id;
  });
  if (!userId) throw new AppError('NOT_FOUND', 'This link is not valid, was already used or has expired');
  deps.forgetUser(userId);
  return { signedOut: true };
}

/** In the link's transaction: sign-out everywhere, the change undone, the audit line and the owner's notice. */
async function undoChange(
  { work }: CredentialNoticesDeps,
  tx: Executor,
  n: { user_id: string; change: CredentialChange; created_at: Date },
  now: Date,
) {
  await tx.execute(
    sql`UPDATE sessions SET status = 'revoked', revoked_reason = 'not_me'
        WHERE user_id = ${n.user_id} AND status IN ('active', 'pending_second_factor')`,
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
    await tx.execute(sql`DELETE FROM passkeys WHERE user_id = ${n.user_id} AND created_at >= ${n.created_at}`);
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
}
