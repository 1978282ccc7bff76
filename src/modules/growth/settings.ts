import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { rows, type Db, type Executor } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import type { Clock } from '../../kernel/clock.js';
import { nairaAmount } from '../../kernel/money.js';

/**
 * Operator-tunable rules of referrals, check-ins, savings locks and loans (docs/decisions.md, README
 * "Growth, savings and loans"). Money values are naira as on the wire; percentages are per cent.
 * Stored one key per row in growth_settings; a missing key means the default below.
 */
const naira = (max: number) =>
  z
    .number()
    .finite()
    .min(0)
    .max(max)
    .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'at most 2 decimals');
const pct = (max: number) => z.number().finite().min(0).max(max);
const int = (min: number, max: number) => z.number().int().min(min).max(max);

export const milestoneSetting = z.object({ threshold: int(1, 100_000), bonus: nairaAmount({ max: 1_000_000 }) });

export const settingsShape = {
  /** Referrer's locked bonus per invitee whose first qualifying purchase succeeded. */
  referralBonus: naira(100_000),
  /** Smallest purchase that qualifies an invitee. */
  referralMinPurchase: naira(1_000_000),
  /** Locked referral bonuses unlock once the referrer's own successful purchases total this much. */
  referralUnlockSpend: naira(10_000_000),
  /** At most this many invitees earn their referrer a bonus per Lagos day (further ones qualify unpaid). */
  referralDailyCap: int(0, 10_000),
  /** Bonuses at counts of rewarded invitees, paid into the referral-locked balance. */
  milestones: z
    .array(milestoneSetting)
    .max(50)
    .refine((a) => new Set(a.map((m) => m.threshold)).size === a.length, 'milestone thresholds must be distinct'),
  checkinReward: naira(100_000),
  /** Extra per consecutive day after the first, up to checkinStreakCap days. */
  checkinStreakBonus: naira(100_000),
  checkinStreakCap: int(1, 365),
  checkinMinWithdrawal: naira(1_000_000),
  savingsAnnualRatePct: pct(100),
  savingsBreakFeePct: pct(50),
  savingsMinAmount: naira(100_000_000),
  savingsMaxAmount: naira(100_000_000),
  loansEnabled: z.boolean(),
  loanFeePct: pct(50),
  loanLateFeePct: pct(50),
  loanTermDays: int(1, 365),
  loanReminderDays: int(0, 30),
  loanMinAmount: naira(10_000_000),
  /** Per KYC tier ceiling; tier 0 never borrows. */
  loanTier1Cap: naira(10_000_000),
  loanTier2Cap: naira(10_000_000),
  loanTier3Cap: naira(10_000_000),
  /** The limit is also at most this share of the last 90 days' successful purchases. */
  loanHistoryPct: pct(1000),
  loanMinPurchases: int(0, 10_000),
  loanMinAccountAgeDays: int(0, 3650),
};

export const settingsSchema = z.object(settingsShape);
export type GrowthSettings = z.infer<typeof settingsSchema>;
export const settingsPatchSchema = settingsSchema.partial();

export const DEFAULT_SETTINGS: GrowthSettings = {
  referralBonus: 500,
  referralMinPurchase: 100,
  referralUnlockSpend: 2_000,
  referralDailyCap: 10,
  milestones: [
    { threshold: 5, bonus: 1_000 },
    { threshold: 10, bonus: 2_500 },
    { threshold: 25, bonus: 7_500 },
  ],
  checkinReward: 10,
  checkinStreakBonus: 5,
  checkinStreakCap: 7,
  checkinMinWithdrawal: 500,
  savingsAnnualRatePct: 10,
  savingsBreakFeePct: 1,
  savingsMinAmount: 1_000,
  savingsMaxAmount: 5_000_000,
  loansEnabled: true,
  loanFeePct: 5,
  loanLateFeePct: 5,
  loanTermDays: 30,
  loanReminderDays: 2,
  loanMinAmount: 500,
  loanTier1Cap: 5_000,
  loanTier2Cap: 20_000,
  loanTier3Cap: 100_000,
  loanHistoryPct: 50,
  loanMinPurchases: 3,
  loanMinAccountAgeDays: 30,
};

/** Basis points of a percentage, so kobo arithmetic stays in integers. */
export const bps = (percent: number) => BigInt(Math.round(percent * 100));

export interface GrowthSettingsStore {
  /** The settings in force (from memory while the change feed is live, else read). */
  get(exec?: Executor): Promise<GrowthSettings>;
  update(actorId: string, patch: Partial<GrowthSettings>): Promise<GrowthSettings>;
  /** Connects the in-memory copy to its invalidation feed (Database.subscribe's live()); until then nothing is kept. */
  attach(live: () => boolean): void;
  /** Drops the in-memory copy: a 'growth_settings_changed' message, a lost feed, or this instance's own update. */
  forget(): void;
}

export const GROWTH_SETTINGS_CHANNEL = 'growth_settings_changed';

const deepFreeze = <T>(o: T): T => {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
};

/**
 * Settings are read on every delivered purchase and loan check, and change a few times a year: each instance keeps
 * them in memory, kept right by invalidation as the session cache is (migration 0602 announces every
 * write at commit; this instance also forgets its copy right after its own update commits). While the feed is down
 * nothing is kept, and a generation counter stops a read that raced a change from being kept. The copy is frozen:
 * callers share it.
 */
export function createSettingsStore({ db, clock }: { db: Db; clock: Clock }): GrowthSettingsStore {
  let kept: GrowthSettings | null = null;
  let generation = 0;
  let isLive: () => boolean = () => false;

  async function load(exec: Executor): Promise<GrowthSettings> {
    const stored = await rows<{ key: string; value: unknown }>(exec, sql`SELECT key, value FROM growth_settings`);
    const out: Record<string, unknown> = { ...DEFAULT_SETTINGS };
    for (const r of stored) {
      const field = (settingsShape as Record<string, z.ZodType>)[r.key];
      // A key from an older release, or a value a newer rule would refuse, falls back to the default.
      if (field && field.safeParse(r.value).success) out[r.key] = r.value;
    }
    return deepFreeze(out as GrowthSettings);
  }
  const forget = () => {
    generation++;
    kept = null;
  };
  return {
    async get(exec: Executor = db) {
      if (kept && isLive()) return kept;
      const readGeneration = generation;
      const s = await load(exec);
      if (isLive() && readGeneration === generation) kept = s;
      return s;
    },
    attach(live) {
      isLive = live;
    },
    forget,
    async update(actorId, patch) {
      const after = await db.transaction(async (tx) => {
        const before = await load(tx);
        const after = { ...before, ...patch };
        const problem = checkSettings(after);
        if (problem) throw new AppError('VALIDATION_FAILED', problem, { issues: [{ path: 'savingsMinAmount', message: problem }] });
        const now = clock.now();
        for (const [key, value] of Object.entries(patch)) {
          if (value === undefined) continue;
          await tx.execute(sql`INSERT INTO growth_settings (key, value, updated_by, updated_at)
                               VALUES (${key}, ${JSON.stringify(value)}::jsonb, ${actorId}, ${now})
                               ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`);
        }
        return after;
      });
      // The caller's next request sees the change even before the message arrives.
      forget();
      return after;
    },
  };
}

/** Cross-field rules that a single field's schema cannot express. */
export function checkSettings(s: GrowthSettings): string | null {
  if (s.savingsMinAmount > s.savingsMaxAmount) return 'savingsMinAmount must not exceed savingsMaxAmount';
  return null;
}
