import type { AuthUser } from '../../kernel/actor.js';
import { toNaira } from '../../kernel/money.js';
import type { WalletMoneyDeps } from './deps.js';
import type { TierLimit } from './limits.js';

/** The highest KYC tier: its customers have no tier above to raise their limits to. */
const TOP_TIER = 3;

const nairaOrNull = (kobo: bigint | null) => (kobo === null ? null : toNaira(kobo));

/** Whether `than`'s limits are higher than `now`'s: a larger daily outflow, or a larger balance cap (null: none). */
const higher = (than: TierLimit, now: TierLimit) =>
  than.dailyOutflow > now.dailyOutflow || (now.balanceCap !== null && (than.balanceCap === null || than.balanceCap > now.balanceCap));

/**
 * getWalletLimits: the caller's KYC tier limits (daily outflow, balance cap), the outflow so far today (Lagos day)
 * and what is left of it, and the limits of the lowest tier above that raises them (none at the top tier). Shown
 * before a PIN is asked for; the posting still decides (walletLimits.outflowLimit checks the locked wallet row).
 */
export async function limitsToday({ db, walletLimits }: Pick<WalletMoneyDeps, 'db' | 'walletLimits'>, user: AuthUser) {
  const tier = walletLimits.limitsFor(user.kycTier);
  const spent = await walletLimits.outflowToday(db, user.id);
  const left = tier.dailyOutflow > spent ? tier.dailyOutflow - spent : 0n;
  let next: { tier: number; limit: TierLimit } | null = null;
  for (let t = user.kycTier + 1; t <= TOP_TIER && !next; t++) {
    const limit = walletLimits.limitsFor(t);
    if (higher(limit, tier)) next = { tier: t, limit };
  }
  return {
    tier: user.kycTier,
    dailyLimit: toNaira(tier.dailyOutflow),
    spentToday: toNaira(spent),
    leftToday: toNaira(left),
    balanceCap: nairaOrNull(tier.balanceCap),
    nextTier: next && { tier: next.tier, dailyLimit: toNaira(next.limit.dailyOutflow), balanceCap: nairaOrNull(next.limit.balanceCap) },
  };
}
