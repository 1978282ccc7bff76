import { sql } from 'drizzle-orm';
import { one, type Executor } from '../../db/client.js';
import { AppError } from '../../http/errors.js';
import { HOUR, type Clock } from '../../lib/clock.js';
import { formatNaira } from '../../lib/money.js';

/**
 * CBN wallet tier limits (DESIGN §6), configurable through TIER_LIMITS. A null cap means no cap.
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

/** Ledger transaction types that count as outflow (debit side) and their refunds (credit side). */
export const OUTFLOW_TYPES = ['vtu_purchase', 'transfer_out', 'wallet_debit', 'marketplace_order', 'subscription_order'];
export const OUTFLOW_REFUND_TYPES = ['vtu_refund', 'order_refund'];

export function parseTierLimits(json: string | undefined): Record<number, TierLimit> {
  if (!json) return DEFAULT_TIER_LIMITS;
  const raw = JSON.parse(json) as Record<string, { dailyOutflow: number; balanceCap: number | null }>;
  const out: Record<number, TierLimit> = { ...DEFAULT_TIER_LIMITS };
  for (const [tier, v] of Object.entries(raw)) {
    out[Number(tier)] = { dailyOutflow: BigInt(Math.round(v.dailyOutflow * 100)), balanceCap: v.balanceCap === null ? null : BigInt(Math.round(v.balanceCap * 100)) };
  }
  return out;
}

export interface WalletLimits {
  limitsFor(tier: number): TierLimit;
  /** Outflow so far today (Lagos day), in kobo. */
  outflowToday(exec: Executor, userId: string): Promise<bigint>;
  /** Throws LIMIT_EXCEEDED if `amount` more outflow today would pass the tier's daily limit. */
  assertOutflow(exec: Executor, userId: string, tier: number, amount: bigint): Promise<void>;
  /** Headroom under the balance cap in kobo (null = no cap). */
  balanceHeadroom(exec: Executor, userId: string, tier: number): Promise<bigint | null>;
}

export function createWalletLimits({ clock, limits }: { clock: Clock; limits: Record<number, TierLimit> }): WalletLimits {
  const limitsFor = (tier: number) => limits[tier] ?? limits[0];
  const lagosMidnight = () => {
    const now = clock.now().getTime();
    // Lagos is UTC+1 without daylight saving.
    return new Date(Math.floor((now + HOUR) / (24 * HOUR)) * 24 * HOUR - HOUR);
  };
  async function outflowToday(exec: Executor, userId: string) {
    const r = await one<{ s: string }>(
      exec,
      sql`SELECT COALESCE(-SUM(e.amount), 0)::text AS s FROM ledger_entries e
          JOIN accounts a ON a.id = e.account_id JOIN ledger_transactions t ON t.id = e.transaction_id
          WHERE a.code = ${`user:${userId}:wallet`} AND e.created_at >= ${lagosMidnight()}
            AND ((t.type IN ${OUTFLOW_TYPES} AND e.amount < 0) OR (t.type IN ${OUTFLOW_REFUND_TYPES} AND e.amount > 0))`,
    );
    const v = BigInt(r?.s ?? '0');
    return v > 0n ? v : 0n;
  }
  return {
    limitsFor,
    outflowToday,
    async assertOutflow(exec, userId, tier, amount) {
      const limit = limitsFor(tier).dailyOutflow;
      const used = await outflowToday(exec, userId);
      if (used + amount > limit) {
        const left = limit - used > 0n ? limit - used : 0n;
        throw new AppError('LIMIT_EXCEEDED', `Daily limit for KYC tier ${tier} is ${formatNaira(limit)}; you can still spend ${formatNaira(left)} today`);
      }
    },
    async balanceHeadroom(exec, userId, tier) {
      const cap = limitsFor(tier).balanceCap;
      if (cap === null) return null;
      const r = await one<{ b: string }>(exec, sql`SELECT balance::text AS b FROM accounts WHERE code = ${`user:${userId}:wallet`}`);
      const left = cap - BigInt(r?.b ?? '0');
      return left > 0n ? left : 0n;
    },
  };
}
