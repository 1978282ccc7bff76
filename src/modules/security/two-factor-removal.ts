import { sql } from 'drizzle-orm';
import { one, type Executor } from '../../db/client.js';
import { HOUR } from '../../kernel/clock.js';
import { uuid } from '../../kernel/ids.js';
import type { Work } from '../../platform/change.js';

/** The owner's two-factor reset takes effect this long after it is asked for, unless cancelled. */
export const TWO_FACTOR_RESET_WAIT_MS = 72 * HOUR;

/**
 * Issue 28: who asked for a pending removal of the authenticator (two_factor_resets.origin, migration 0802).
 * 'owner': requestTwoFactorReset, cancelled with an e-mailed code. 'not_me': the "this wasn't me" link of the
 * "authenticator set up" notice; whoever reads the mailbox holds that link, so it removes nothing at once: the removal
 * waits as long as the owner's reset, and proving the authenticator (a step-up with an app code) cancels it.
 */
export type RemovalOrigin = 'owner' | 'not_me';

/**
 * Schedules the removal of the user's confirmed authenticator TWO_FACTOR_RESET_WAIT_MS from now (a pending reset
 * keeps its own, earlier date) and returns when it takes effect; null when no authenticator is confirmed. An
 * unconfirmed one protects nothing and goes at once.
 */
export async function scheduleTotpRemoval(tx: Executor, userId: string, now: Date): Promise<Date | null> {
  await tx.execute(sql`DELETE FROM totp_factors WHERE user_id = ${userId} AND confirmed_at IS NULL`);
  if (!(await one(tx, sql`SELECT 1 FROM totp_factors WHERE user_id = ${userId}`))) return null;
  const pending = await one<{ effective_at: Date }>(
    tx,
    sql`WITH created AS (
          INSERT INTO two_factor_resets (id, user_id, requested_at, effective_at, origin)
          VALUES (${uuid()}, ${userId}, ${now}, ${new Date(now.getTime() + TWO_FACTOR_RESET_WAIT_MS)}, 'not_me')
          ON CONFLICT (user_id) WHERE cancelled_at IS NULL AND completed_at IS NULL DO NOTHING RETURNING effective_at)
        SELECT effective_at FROM created
        UNION ALL SELECT effective_at FROM two_factor_resets WHERE user_id = ${userId} AND cancelled_at IS NULL AND completed_at IS NULL`,
  );
  return new Date(pending!.effective_at);
}

/** The owner proved the authenticator: a removal asked for through "this wasn't me" is cancelled, and the owner told. */
export async function cancelNotMeRemoval(exec: Executor, work: Work, userId: string, now: Date): Promise<void> {
  const r = await one(
    exec,
    sql`UPDATE two_factor_resets SET cancelled_at = ${now}
        WHERE user_id = ${userId} AND origin = 'not_me' AND cancelled_at IS NULL AND completed_at IS NULL RETURNING 1`,
  );
  if (!r) return;
  await work
    .change(exec)
    .notify({
      userId,
      kind: 'login_alert',
      title: 'Security: your authenticator app stays',
      body: 'A code from your authenticator app was entered, so its scheduled removal was cancelled. If this was not you, contact support.',
      data: { event: 'removal_cancelled' },
      everyChannel: true,
    })
    .commit();
}
