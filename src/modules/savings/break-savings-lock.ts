import { sql } from 'drizzle-orm';
import { one, type Db } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import type { Clock } from '../../kernel/clock.js';
import type { Work } from '../../platform/change.js';
import { applyBps } from '../growth/api.js';
import { LOCK_COLUMNS, present, type LockRow } from './lock-row.js';
import { matureInTx } from './mature.js';

/** breakSavingsLock: principal back minus the fee fixed at creation, interest forfeited. Past maturity it simply matures. */
export async function breakSavingsLock(deps: { db: Db; clock: Clock; work: Work }, userId: string, lockId: string) {
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const owned = await one<{ status: string; matures_at: Date }>(
      tx,
      sql`SELECT status, matures_at FROM savings_locks WHERE id = ${lockId} AND user_id = ${userId}`,
    );
    if (!owned) throw notFound('Savings lock');
    if (owned.status === 'active' && new Date(owned.matures_at).getTime() <= now.getTime()) {
      await matureInTx(deps, tx, lockId);
    } else {
      const r = await one<LockRow>(
        tx,
        sql`UPDATE savings_locks SET status = 'broken', closed_at = ${now},
                   fee_kobo = (principal_kobo * break_fee_bps) / 10000, payout_kobo = principal_kobo - (principal_kobo * break_fee_bps) / 10000
            WHERE id = ${lockId} AND user_id = ${userId} AND status = 'active' RETURNING ${LOCK_COLUMNS}`,
      );
      if (!r) throw new AppError('CONFLICT', `This savings lock is already ${owned.status}`);
      const principal = BigInt(r.principal_kobo);
      const fee = applyBps(principal, BigInt(r.break_fee_bps));
      const reference = `sav_break_${r.id}`;
      await deps.work
        .change(tx)
        .post({
          reference,
          type: 'savings_break',
          description: 'Savings lock broken early',
          entries: [
            { account: { user: userId, kind: 'savings' }, amount: -principal },
            { account: { user: userId, kind: 'wallet' }, amount: principal - fee },
            ...(fee > 0n ? [{ account: { system: 'revenue' as const }, amount: fee }] : []),
          ],
        })
        .emit('wallet.credited', { userId, amount: principal - fee, source: 'savings', reference })
        .commit();
    }
    const final = await one<LockRow>(tx, sql`SELECT ${LOCK_COLUMNS} FROM savings_locks WHERE id = ${lockId}`);
    return { lock: present(final!) };
  });
}
