import { sql } from 'drizzle-orm';
import { one, type Db, type Executor } from '../../db/client.js';
import { DAY, type Clock } from '../../kernel/clock.js';
import { formatNaira, toKobo, toNaira } from '../../kernel/money.js';
import { profileOf } from '../identity/api.js';
import { applyBps, bps, iso, type GrowthSettings, type GrowthSettingsStore } from '../growth/api.js';
import { openLoan, outstandingOf, present } from './loan-row.js';

/** Purchases counted for the history part of the limit. */
export const LOAN_HISTORY_DAYS = 90;
/** A loan that went overdue blocks new loans for this long after it is repaid. */
export const LATE_REPAYMENT_COOLDOWN_DAYS = 90;

export type IneligibleCode =
  'LOANS_DISABLED' | 'KYC_TIER' | 'ACCOUNT_AGE' | 'PURCHASE_HISTORY' | 'OPEN_LOAN' | 'RECENT_LATE_REPAYMENT' | 'LIMIT_TOO_LOW';

function tierCap(s: GrowthSettings, tier: number): bigint {
  if (tier >= 3) return toKobo(s.loanTier3Cap);
  if (tier === 2) return toKobo(s.loanTier2Cap);
  if (tier === 1) return toKobo(s.loanTier1Cap);
  return 0n;
}

/** Eligibility with every reason that applies, and the limit (tier ceiling and recent purchase history). */
export async function assess(clock: Clock, exec: Executor, userId: string, tier: number, s: GrowthSettings) {
  const now = clock.now();
  const reasons: { code: IneligibleCode; message: string }[] = [];
  if (!s.loansEnabled) reasons.push({ code: 'LOANS_DISABLED', message: 'Loans are paused at the moment' });
  if (tier < 1) reasons.push({ code: 'KYC_TIER', message: 'Complete KYC Tier 1 to borrow' });
  const user = await profileOf(exec, userId);
  const ageDays = user ? (now.getTime() - user.createdAt.getTime()) / DAY : 0;
  if (ageDays < s.loanMinAccountAgeDays)
    reasons.push({ code: 'ACCOUNT_AGE', message: `Your account must be at least ${s.loanMinAccountAgeDays} days old` });
  const since = new Date(now.getTime() - LOAN_HISTORY_DAYS * DAY);
  const hist = await one<{ n: number; s: string }>(
    exec,
    sql`SELECT COUNT(*)::int AS n, COALESCE(SUM(amount_kobo), 0)::text AS s FROM growth_purchases WHERE user_id = ${userId} AND created_at >= ${since}`,
  );
  const purchases = hist?.n ?? 0;
  if (purchases < s.loanMinPurchases) {
    reasons.push({
      code: 'PURCHASE_HISTORY',
      message: `Make at least ${s.loanMinPurchases} purchases in ${LOAN_HISTORY_DAYS} days (you have ${purchases})`,
    });
  }
  const open = await openLoan(exec, userId);
  if (open) reasons.push({ code: 'OPEN_LOAN', message: 'Repay your current loan first' });
  const late = await one(
    exec,
    sql`SELECT 1 FROM loans WHERE user_id = ${userId} AND status = 'repaid' AND overdue_at IS NOT NULL
        AND repaid_at >= ${new Date(now.getTime() - LATE_REPAYMENT_COOLDOWN_DAYS * DAY)} LIMIT 1`,
  );
  if (late)
    reasons.push({
      code: 'RECENT_LATE_REPAYMENT',
      message: `A loan repaid late blocks new loans for ${LATE_REPAYMENT_COOLDOWN_DAYS} days`,
    });
  const fromHistory = applyBps(BigInt(hist?.s ?? '0'), bps(s.loanHistoryPct));
  let limit = tierCap(s, tier) < fromHistory ? tierCap(s, tier) : fromHistory;
  limit -= limit % 100n; // whole naira
  if (reasons.length === 0 && limit < toKobo(s.loanMinAmount)) {
    reasons.push({
      code: 'LIMIT_TOO_LOW',
      message: `Your limit is below the smallest loan (${formatNaira(toKobo(s.loanMinAmount))}); buy more to raise it`,
    });
  }
  return { eligible: reasons.length === 0, reasons, limit: reasons.length === 0 ? limit : 0n, open };
}

/** getLoanOverview: whether the user may borrow and how much, and the loan they owe. */
export async function getLoanOverview(
  deps: { db: Db; clock: Clock; settings: GrowthSettingsStore },
  user: { id: string; kycTier: number },
) {
  const s = await deps.settings.get();
  const a = await assess(deps.clock, deps.db, user.id, user.kycTier, s);
  return {
    eligible: a.eligible,
    reasons: a.reasons,
    limit: toNaira(a.limit),
    minAmount: s.loanMinAmount,
    feePct: s.loanFeePct,
    lateFeePct: s.loanLateFeePct,
    termDays: s.loanTermDays,
    outstanding: a.open ? toNaira(outstandingOf(a.open)) : 0,
    dueAt: a.open ? iso(a.open.due_at) : null,
    loan: a.open ? present(a.open) : null,
  };
}
