import { sql } from 'drizzle-orm';
import { one, type Db } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import type { Ledger } from '../../ledger/ledger.js';
import { DAY, lagosDate, type Clock } from '../../kernel/clock.js';
import type { Work } from '../../platform/change.js';
import { prefixedId } from '../../kernel/ids.js';
import { formatNaira, toKobo, toNaira } from '../../kernel/money.js';
import { lockedBalance } from './accounts.js';
import type { GrowthSettings, GrowthSettingsStore } from './settings.js';

/** Daily check-ins: the streak, its locked reward, and withdrawing the rewards once the spend unlocks them. */
export interface CheckinDeps {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  work: Work;
  settings: GrowthSettingsStore;
}

/** Check-in reward for the n-th consecutive day: base plus a streak bonus that stops growing at the cap. */
export function checkinReward(s: GrowthSettings, streakDay: number): bigint {
  const extraDays = Math.max(0, Math.min(streakDay, s.checkinStreakCap) - 1);
  return toKobo(s.checkinReward) + toKobo(s.checkinStreakBonus) * BigInt(extraDays);
}

/** getCheckinStatus: today's claim, the streak, the accrued bonus and whether it can be withdrawn. */
export async function getCheckinStatus(deps: CheckinDeps, userId: string) {
  const { db, clock } = deps;
  const s = await deps.settings.get();
  const now = clock.now();
  const today = lagosDate(now);
  const yesterday = lagosDate(new Date(now.getTime() - DAY));
  const last = await one<{ day: string; streak: number }>(
    db,
    sql`SELECT day::text AS day, streak FROM checkins WHERE user_id = ${userId} ORDER BY day DESC LIMIT 1`,
  );
  const streak = last && (last.day === today || last.day === yesterday) ? last.streak : 0;
  const accrued = (await deps.ledger.userBalances(db, userId)).bonus_locked;
  const min = toKobo(s.checkinMinWithdrawal);
  return {
    today,
    streak,
    todayClaimed: last?.day === today,
    accrued: toNaira(accrued),
    nextReward: toNaira(checkinReward(s, streak + 1)),
    minWithdrawal: s.checkinMinWithdrawal,
    canWithdraw: accrued > 0n && accrued >= min,
  };
}

/** claimCheckin: once per Lagos calendar day; the (user, day) key decides under races. */
export async function claimCheckin(deps: CheckinDeps, userId: string) {
  const { db, clock, work } = deps;
  const s = await deps.settings.get();
  return db.transaction(async (tx) => {
    const now = clock.now();
    const today = lagosDate(now);
    const yesterday = lagosDate(new Date(now.getTime() - DAY));
    const last = await one<{ day: string; streak: number }>(
      tx,
      sql`SELECT day::text AS day, streak FROM checkins WHERE user_id = ${userId} ORDER BY day DESC LIMIT 1`,
    );
    if (last?.day === today) throw new AppError('CONFLICT', "Today's check-in is already claimed; come back tomorrow");
    const streak = last?.day === yesterday ? last.streak + 1 : 1;
    const reward = checkinReward(s, streak);
    const ins = await one(
      tx,
      sql`INSERT INTO checkins (user_id, day, streak, reward_kobo, created_at) VALUES (${userId}, ${today}::date, ${streak}, ${reward}, ${now})
          ON CONFLICT DO NOTHING RETURNING day`,
    );
    if (!ins) throw new AppError('CONFLICT', "Today's check-in is already claimed; come back tomorrow");
    let posted: bigint;
    if (reward > 0n) {
      const p = (
        await work
          .change(tx)
          .post({
            reference: `chk_${userId}_${today}`,
            type: 'checkin_bonus',
            description: `Daily check-in (day ${streak})`,
            entries: [
              { account: { user: userId, kind: 'bonus_locked' }, amount: reward },
              { account: { system: 'bonus_expense' }, amount: -reward },
            ],
          })
          .commit()
      ).posted!;
      posted = p.balances[`user:${userId}:bonus_locked`] ?? 0n;
    } else {
      posted = await lockedBalance(tx, userId, 'bonus_locked');
    }
    return { day: today, streak, reward: toNaira(reward), accrued: toNaira(posted) };
  });
}

/** withdrawCheckin: moves the whole accrued check-in bonus to the wallet once it reaches the minimum. */
export async function withdrawCheckin(deps: CheckinDeps, userId: string) {
  const s = await deps.settings.get();
  return deps.db.transaction(async (tx) => {
    await lockedBalance(tx, userId, 'wallet');
    const accrued = await lockedBalance(tx, userId, 'bonus_locked');
    const min = toKobo(s.checkinMinWithdrawal);
    if (accrued <= 0n || accrued < min) {
      throw new AppError(
        'AMOUNT_OUT_OF_RANGE',
        `You can withdraw once your check-in bonus reaches ${formatNaira(min)}; you have ${formatNaira(accrued)}`,
      );
    }
    const reference = prefixedId('chw');
    await deps.work
      .change(tx)
      .post({
        reference,
        type: 'checkin_withdrawal',
        description: 'Check-in bonus withdrawn to wallet',
        entries: [
          { account: { user: userId, kind: 'bonus_locked' }, amount: -accrued },
          { account: { user: userId, kind: 'wallet' }, amount: accrued },
        ],
      })
      .emit('wallet.credited', { userId, amount: accrued, source: 'other', reference })
      .commit();
    // Read after the event: an open loan may have taken part of the credit.
    const balance = await deps.ledger.balance(tx, { user: userId, kind: 'wallet' });
    return { amount: toNaira(accrued), reference, balance: toNaira(balance) };
  });
}
