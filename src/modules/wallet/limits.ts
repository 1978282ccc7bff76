import { sql } from 'drizzle-orm';
import { one, type Executor } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { lagosDate, type Clock } from '../../kernel/clock.js';
import type { WalletLimit } from '../../ledger/ledger.js';
import { formatNaira } from '../../kernel/money.js';

/**
 * CBN wallet tier limits (docs/design.md §6), configurable through TIER_LIMITS. A null cap means no cap.
 * Outflow is money leaving the user's control: purchases, transfers out, debits, orders; refunds net it.
 */
export interface TierLimit {
  dailyOutflow: bigint;
  balanceCap: bigint | null;
}

export const DEFAULT_TIER_LIMITS: Record<number, TierLimit> = {
  0: { dailyOutflow: 5_000_000n, balanceCap: 30_000_000n },
  1: { dailyOutflow: 5_000_000n, balanceCap: 30_000_000n },
  2: { dailyOutflow: 20_000_000n, balanceCap: 50_000_000n },
  3: { dailyOutflow: 500_000_000n, balanceCap: null },
};

/** Ledger transaction types that count as outflow (debit side) and their refunds (credit side): the ledger's. */
export { OUTFLOW_TYPES, OUTFLOW_REFUND_TYPES } from '../../ledger/ledger.js';

export function parseTierLimits(json: string | undefined): Record<number, TierLimit> {
  if (!json) return DEFAULT_TIER_LIMITS;
  const raw = JSON.parse(json) as Record<string, { dailyOutflow: number; balanceCap: number | null }>;
  const out: Record<number, TierLimit> = { ...DEFAULT_TIER_LIMITS };
  for (const [tier, v] of Object.entries(raw)) {
    out[Number(tier)] = {
      dailyOutflow: BigInt(Math.round(v.dailyOutflow * 100)),
      balanceCap: v.balanceCap === null ? null : BigInt(Math.round(v.balanceCap * 100)),
    };
  }
  return out;
}

export interface WalletLimits {
  limitsFor(tier: number): TierLimit;
  /** Outflow so far today (Lagos day), in kobo. */
  outflowToday(exec: Executor, userId: string): Promise<bigint>;
  /**
   * The tier's daily outflow limit as a ledger posting limit: checked on the wallet row the posting locks, so
   * concurrent debits cannot race past it; refused with LIMIT_EXCEEDED saying what is left today.
   */
  outflowLimit(userId: string, tier: number): WalletLimit;
  /** Headroom under the balance cap in kobo (null = no cap). */
  balanceHeadroom(exec: Executor, userId: string, tier: number): Promise<bigint | null>;
  /** Each tier's balance cap (null: none), and the cap of a tier not listed: what a statement needs to check it. */
  balanceCaps(): { byTier: ReadonlyMap<number, bigint | null>; otherwise: bigint | null };
  /** The lowest balance cap of any tier (null: no tier has one): a balance at or under it passes no cap. */
  lowestBalanceCap(): bigint | null;
}

export function createWalletLimits({ clock, limits }: { clock: Clock; limits: Record<number, TierLimit> }): WalletLimits {
  const limitsFor = (tier: number) => limits[tier] ?? limits[0];
  // The wallet row carries its outflow for the current Lagos day (src/ledger/ledger.ts keeps it): one indexed row
  // read, no sum over the day's entries. Negative (refunds of an earlier day) reads as zero, as the sum did.
  async function outflowToday(exec: Executor, userId: string) {
    const r = await one<{ s: string }>(
      exec,
      sql`SELECT CASE WHEN outflow_day = ${lagosDate(clock.now())}::date THEN outflow_today ELSE 0 END::text AS s
          FROM accounts WHERE code = ${`user:${userId}:wallet`}`,
    );
    const v = BigInt(r?.s ?? '0');
    return v > 0n ? v : 0n;
  }
  const refusal = (tier: number, used: bigint) => {
    const limit = limitsFor(tier).dailyOutflow;
    const left = limit - used > 0n ? limit - used : 0n;
    return new AppError(
      'LIMIT_EXCEEDED',
      `Daily limit for KYC tier ${tier} is ${formatNaira(limit)}; you can still spend ${formatNaira(left)} today`,
    );
  };
  return {
    limitsFor,
    outflowToday,
    outflowLimit(userId, tier) {
      return { user: userId, dailyOutflow: { max: limitsFor(tier).dailyOutflow, refuse: (used) => refusal(tier, used) } };
    },
    async balanceHeadroom(exec, userId, tier) {
      const cap = limitsFor(tier).balanceCap;
      if (cap === null) return null;
      const r = await one<{ b: string }>(exec, sql`SELECT balance::text AS b FROM accounts WHERE code = ${`user:${userId}:wallet`}`);
      const left = cap - BigInt(r?.b ?? '0');
      return left > 0n ? left : 0n;
    },
    balanceCaps() {
      return { byTier: new Map(Object.entries(limits).map(([t, l]) => [Number(t), l.balanceCap])), otherwise: limitsFor(0).balanceCap };
    },
    lowestBalanceCap() {
      const caps = Object.values(limits).flatMap((l) => (l.balanceCap === null ? [] : [l.balanceCap]));
      return caps.length ? caps.reduce((a, b) => (a < b ? a : b)) : null;
    },
  };
}
