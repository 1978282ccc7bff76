import { sql } from 'drizzle-orm';
import { AppError } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import { lockUser, scrub } from '../identity/api.js';
import { writeAudit } from '../../db/audit.js';
import type { SettingsDeps } from './deps.js';

/**
 * Closes the account: refused while money is held (wallet or savings) or a loan is open; personal data is
 * anonymised, every session and grant ends, the ledger is kept untouched for the books.
 */
export async function closeAccount({ db, clock, ledger, work, forgetUser }: SettingsDeps, user: AuthUser) {
  const now = clock.now();
  await db.transaction(async (tx) => {
    await lockUser(tx, user.id);
    // Lock the user's ledger accounts so a credit cannot land between the balance check and the close.
    await tx.execute(sql`SELECT id FROM accounts WHERE user_id = ${user.id} FOR UPDATE`);
    const b = await ledger.userBalances(tx, user.id);
    if (b.wallet > 0n || b.savings > 0n) {
      throw new AppError('ACCOUNT_HAS_FUNDS', 'Withdraw or spend your wallet and savings balance before closing the account');
    }
    if (b.loan !== 0n) throw new AppError('LOAN_OUTSTANDING', 'Repay your open loan before closing the account');
    await scrub(tx, user.id, now);
    await tx.execute(sql`UPDATE sessions SET status = 'revoked', revoked_reason = 'account_closed'
                         WHERE user_id = ${user.id} AND status = 'active'`);
    await tx.execute(sql`UPDATE stepup_grants SET revoked_at = ${now} WHERE user_id = ${user.id} AND revoked_at IS NULL`);
    await tx.execute(sql`DELETE FROM user_pins WHERE user_id = ${user.id}`);
    await tx.execute(sql`DELETE FROM totp_factors WHERE user_id = ${user.id}`);
    await tx.execute(sql`DELETE FROM user_preferences WHERE user_id = ${user.id}`);
    await tx.execute(sql`UPDATE login_events SET ip = NULL, user_agent = NULL, device = NULL WHERE user_id = ${user.id}`);
    await tx.execute(sql`DELETE FROM phone_verifications WHERE user_id = ${user.id}`);
    await writeAudit(tx, {
      actorId: user.id,
      action: 'account.closed',
      subjectType: 'user',
      subjectId: user.id,
      details: null,
      at: now,
    });
    // Other areas scrub what they hold (KYC files, push endpoints, ...) in this same transaction.
    await work.change(tx).emit('account.closed', { userId: user.id }).commit();
  });
  forgetUser(user.id);
  return { closed: true };
}
