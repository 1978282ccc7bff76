import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';
import { formatNaira, toNaira } from '../../kernel/money.js';
import type { Work } from '../../platform/change.js';
import type { WalletLimits } from '../wallet/api.js';
import type { Levels } from './levels.js';

/** What a customer's level use cases use. */
export interface LevelUpgradeDeps {
  db: Db;
  clock: Clock;
  work: Work;
  walletLimits: WalletLimits;
  levels: Levels;
}

/** The upgrade fees' counter-account: revenue, apart from the markups. */
export const UPGRADE_FEE_ACCOUNT = 'revenue:level_upgrades' as const;

/** getMyPriceLevel: the caller's level and the levels above it, each with its upgrade fee (null: granted by an operator). */
export async function myLevel({ levels }: Pick<LevelUpgradeDeps, 'levels'>, userId: string) {
  const all = await levels.list();
  const id = await levels.levelOf(userId);
  const mine = all.find((l) => l.id === id) ?? all[0];
  return {
    level: { id: mine.id, name: mine.name, rank: mine.rank, apiKeys: mine.apiKeys },
    above: all
      .filter((l) => l.rank > mine.rank)
      .map((l) => ({
        id: l.id,
        name: l.name,
        rank: l.rank,
        apiKeys: l.apiKeys,
        upgradeFee: l.upgradeFee === null ? null : toNaira(l.upgradeFee),
        how: l.upgradeFee === null ? ('granted' as const) : ('upgrade' as const),
      })),
  };
}

/**
 * upgradePriceLevel: pays the level's upgrade fee from the wallet and moves the caller to it, in ONE posting (the
 * wallet locked, the daily limit and the balance checked on the locked row, the level written only when it posts).
 * The ledger reference is the caller's and the level's, so a retry never pays twice; a caller already at or above
 * the level pays nothing.
 */
export async function upgrade(deps: LevelUpgradeDeps, user: { id: string; kycTier: number }, levelId: string) {
  const { levels, work, walletLimits, clock } = deps;
  const target = await levels.named(levelId);
  const current = await levels.named(await levels.levelOf(user.id));
  if (current.rank >= target.rank) {
    if (current.id === target.id) return { ...(await myLevel(deps, user.id)), paid: 0 };
    throw new AppError('VALIDATION_FAILED', `You are already at ${current.name}, above ${target.name}`, {
      issues: [{ path: 'level', message: 'not above your level' }],
    });
  }
  if (target.upgradeFee === null)
    throw new AppError('VALIDATION_FAILED', `${target.name} is granted by the business, not bought; contact support`, {
      issues: [{ path: 'level', message: 'granted only' }],
    });
  const fee = target.upgradeFee;
  const reference = `lvl_${user.id}_${target.id}`;
  const now = clock.now();
  const paid = work
    .change()
    .post(
      {
        reference,
        type: 'wallet_debit',
        description: `Upgrade to ${target.name} (${formatNaira(fee)})`,
        entries: [
          { account: { user: user.id, kind: 'wallet' }, amount: -fee },
          { account: { system: UPGRADE_FEE_ACCOUNT }, amount: fee },
        ],
        metadata: { level: target.id },
        limits: [walletLimits.outflowLimit(user.id, user.kycTier)],
      },
      { ifPosted: 'skip' },
    )
    .write(
      (each) =>
        sql`INSERT INTO vtu_customer_levels (user_id, level, source, reference, updated_at)
            SELECT ${user.id}::uuid, ${target.id}, 'upgrade', ${reference}, ${now}::timestamptz FROM ${each}
            ON CONFLICT (user_id) DO UPDATE SET level = EXCLUDED.level, source = EXCLUDED.source, reference = EXCLUDED.reference,
              updated_at = EXCLUDED.updated_at
            WHERE (SELECT rank FROM vtu_price_levels WHERE id = vtu_customer_levels.level) < ${target.rank}`,
    )
    .commit();
  // A concurrent twin that paid first leaves this one short of funds or skipped: the caller is at the level either way.
  const { posted } = await paid
    .finally(() => levels.forgetCustomer(user.id))
    .catch(async (err: unknown) => {
      if ((await levels.levelNow(user.id)) === target.id) return { posted: null };
      throw err;
    });
  if (!posted && (await levels.levelNow(user.id)) !== target.id)
    throw new AppError('CONFLICT', `The upgrade to ${target.name} was paid for before; contact support to be moved back to it`);
  return { ...(await myLevel(deps, user.id)), paid: posted ? toNaira(fee) : 0 };
}
