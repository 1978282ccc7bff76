import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { decrypt } from '../../lib/crypto.js';
import type { createCodeTries } from './code-tries.js';
import type { RemovalOrigin } from './two-factor-removal.js';
import { matchTotpStep } from './totp.js';
import { deleteRecoveryCodes } from './recovery-codes.js';
import type { FactorRow, TwoFactorDeps } from './two-factor-deps.js';

/** The factor, after finishing a reset whose waiting period is over. */
export async function factorOf(deps: TwoFactorDeps, userId: string): Promise<FactorRow | undefined> {
  const row = await one<FactorRow & { reset_due: boolean }>(
    deps.db,
    sql`SELECT secret_enc, confirmed_at, last_step::text AS last_step,
               EXISTS (SELECT 1 FROM two_factor_resets r WHERE r.user_id = f.user_id AND r.cancelled_at IS NULL
                         AND r.completed_at IS NULL AND r.effective_at <= ${deps.clock.now()}) AS reset_due
        FROM totp_factors f WHERE user_id = ${userId}`,
  );
  if (!row?.reset_due) return row;
  await completeDueReset(deps, userId);
  return undefined;
}

async function completeDueReset({ db, clock, notices, identity }: TwoFactorDeps, userId: string) {
  const now = clock.now();
  const done = await db.transaction(async (tx) => {
    const r = await one<{ origin: RemovalOrigin }>(
      tx,
      sql`UPDATE two_factor_resets SET completed_at = ${now}
          WHERE user_id = ${userId} AND cancelled_at IS NULL AND completed_at IS NULL AND effective_at <= ${now} RETURNING origin`,
    );
    if (!r) return false;
    await tx.execute(sql`DELETE FROM totp_factors WHERE user_id = ${userId}`);
    await deleteRecoveryCodes(tx, userId);
    const why = r.origin === 'not_me' ? 'removal that followed your "this wasn\'t me" report' : 'reset you asked for';
    const detail = `The waiting period of the ${why} is over; you can set up an authenticator again.`;
    await notices.notify(tx, userId, 'totp_reset_done', detail, { everyChannel: r.origin === 'not_me' });
    return true;
  });
  if (done) identity.forgetUser(userId);
}

/**
 * Accepts the code once: the step must be newer than the last accepted step, and the conditional UPDATE
 * makes two concurrent uses of one code fail except for one (replay within the window refused).
 */
export async function acceptTotp(
  { db, clock, encryptionKey, identity }: TwoFactorDeps,
  codeTries: ReturnType<typeof createCodeTries>,
  userId: string,
  f: FactorRow,
  code: string,
  confirm: boolean,
  key: string,
): Promise<'ok' | 'replay' | 'wrong'> {
  const step = matchTotpStep(decrypt(encryptionKey, f.secret_enc), code, clock.now().getTime());
  if (step === null) return 'wrong';
  const now = clock.now();
  const done = await one(
    db,
    sql`UPDATE totp_factors SET last_step = ${step}, updated_at = ${now}
          ${confirm ? sql`, confirmed_at = ${now}` : sql``}
        WHERE user_id = ${userId} AND (last_step IS NULL OR last_step < ${step})
          ${confirm ? sql`AND confirmed_at IS NULL` : sql`AND confirmed_at IS NOT NULL`}
        RETURNING 1`,
  );
  if (done) await codeTries.succeed(key);
  // The step-up gate reads "enrolled" from the cached session state: this instance forgets it at once.
  if (done && confirm) identity.forgetUser(userId);
  // A replay is refused but is not a guess: it does not count toward the lock.
  return done ? 'ok' : 'replay';
}
