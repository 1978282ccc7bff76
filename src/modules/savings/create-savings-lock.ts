import { sql } from 'drizzle-orm';
import { one, type Db } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { DAY, type Clock } from '../../kernel/clock.js';
import { uuid } from '../../kernel/ids.js';
import { formatNaira, toKobo } from '../../kernel/money.js';
import type { Work } from '../../platform/change.js';
import { bps, type GrowthSettingsStore } from '../growth/api.js';
import { LOCK_COLUMNS, present, type LockRow } from './lock-row.js';

/** Simple interest for the locked days on a 365-day year, rounded down to the kobo. */
export function savingsInterest(principal: bigint, rateBps: bigint, days: number): bigint {
  return (principal * rateBps * BigInt(days)) / (10_000n * 365n);
}

/** createSavingsLock: the principal moves from the wallet to savings; its maturity is a job at the date. */
export async function createSavingsLock(
  deps: { db: Db; clock: Clock; work: Work; settings: GrowthSettingsStore },
  userId: string,
  input: { amount: number; days: number },
) {
  const s = await deps.settings.get();
  const principal = toKobo(input.amount);
  if (principal < toKobo(s.savingsMinAmount) || principal > toKobo(s.savingsMaxAmount)) {
    throw new AppError(
      'AMOUNT_OUT_OF_RANGE',
      `A savings lock holds ${formatNaira(toKobo(s.savingsMinAmount))} to ${formatNaira(toKobo(s.savingsMaxAmount))}`,
    );
  }
  const rate = bps(s.savingsAnnualRatePct);
  const feeBps = bps(s.savingsBreakFeePct);
  const interest = savingsInterest(principal, rate, input.days);
  return deps.db.transaction(async (tx) => {
    const id = uuid();
    const now = deps.clock.now();
    const maturesAt = new Date(now.getTime() + input.days * DAY);
    const r = await one<LockRow>(
      tx,
      sql`INSERT INTO savings_locks (id, user_id, principal_kobo, days, rate_bps, break_fee_bps, interest_kobo, status, created_at, matures_at)
          VALUES (${id}, ${userId}, ${principal}, ${input.days}, ${Number(rate)}, ${Number(feeBps)}, ${interest}, 'active', ${now}, ${maturesAt})
          RETURNING ${LOCK_COLUMNS}`,
    );
    await deps.work
      .change(tx)
      .post({
        reference: `sav_lock_${id}`,
        type: 'savings_lock',
        description: `Savings lock for ${input.days} days`,
        entries: [
          { account: { user: userId, kind: 'wallet' }, amount: -principal },
          { account: { user: userId, kind: 'savings' }, amount: principal },
        ],
      })
      .enqueue('savings.mature', { lockId: id }, { runAt: maturesAt, singletonKey: `savings.mature:${id}` })
      .commit();
    return { lock: present(r!) };
  });
}
