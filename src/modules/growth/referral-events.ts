import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { prefixedId } from '../../kernel/ids.js';
import type { Change, Work } from '../../platform/change.js';
import { asTx, lockedBalance } from './accounts.js';

/**
 * 'user.created': who invited the new account, recorded by the sign-up's own statement. A code that is unknown,
 * the new account's own or a closed account's records nothing, so sign-up never fails on a typo.
 */
export function recordReferral(clock: Clock, change: Change, e: { userId: string; referralCode?: string }): void {
  if (!e.referralCode) return;
  const code = e.referralCode.trim().toUpperCase();
  change.write(
    (each) => sql`INSERT INTO referrals (invitee_id, referrer_id, code, created_at)
      SELECT ${e.userId}::uuid, c.user_id, ${code}::text, ${clock.now()}::timestamptz
      FROM ${each}, referral_codes c JOIN users u ON u.id = c.user_id
      WHERE c.code = ${code}::text AND u.status = 'active' AND c.user_id <> ${e.userId}::uuid
      ON CONFLICT (invitee_id) DO NOTHING`,
  );
}

/** 'account.closed': locked bonuses the user can no longer earn out are forfeited back to bonus_expense. */
export async function forfeitLockedBonuses(work: Work, exec: Executor, e: { userId: string }): Promise<void> {
  const tx = asTx(exec);
  for (const kind of ['bonus_locked', 'referral_locked'] as const) {
    const locked = await lockedBalance(tx, e.userId, kind);
    if (locked <= 0n) continue;
    await work
      .change(tx)
      .post({
        reference: prefixedId('bfo'),
        type: 'bonus_forfeited',
        description: 'Locked bonus forfeited on account closure',
        entries: [
          { account: { user: e.userId, kind }, amount: -locked },
          { account: { system: 'bonus_expense' }, amount: locked },
        ],
      })
      .commit();
  }
}
