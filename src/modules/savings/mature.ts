import { sql } from 'drizzle-orm';
import { one, rows, type Db, type Tx } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { formatNaira, toNaira } from '../../kernel/money.js';
import type { Work } from '../../platform/change.js';
import { LOCK_COLUMNS, type LockRow } from './lock-row.js';

export interface MatureDeps {
  db: Db;
  clock: Clock;
  work: Work;
}

/** Pays principal plus interest once; the status update is the "exactly once" guard. */
export async function matureInTx(deps: { clock: Clock; work: Work }, tx: Tx, lockId: string): Promise<boolean> {
  const now = deps.clock.now();
  const r = await one<LockRow & { user_id: string }>(
    tx,
    sql`UPDATE savings_locks SET status = 'matured', closed_at = ${now}, payout_kobo = principal_kobo + interest_kobo, fee_kobo = 0
        WHERE id = ${lockId} AND status = 'active' AND matures_at <= ${now} RETURNING ${LOCK_COLUMNS}, user_id::text AS user_id`,
  );
  if (!r) return false;
  const principal = BigInt(r.principal_kobo);
  const interest = BigInt(r.interest_kobo);
  const reference = `sav_mature_${r.id}`;
  await deps.work
    .change(tx)
    .post({
      reference,
      type: 'savings_matured',
      description: `Savings lock matured (${r.days} days)`,
      entries: [
        { account: { user: r.user_id, kind: 'savings' }, amount: -principal },
        { account: { user: r.user_id, kind: 'wallet' }, amount: principal + interest },
        ...(interest > 0n ? [{ account: { system: 'interest_expense' as const }, amount: -interest }] : []),
      ],
    })
    .notify({
      userId: r.user_id,
      kind: 'savings_matured',
      title: 'Savings lock matured',
      body: `${formatNaira(principal + interest)} (${formatNaira(interest)} interest) is back in your wallet.`,
      data: { lockId: r.id, total: toNaira(principal + interest), interest: toNaira(interest) },
    })
    .emit('wallet.credited', { userId: r.user_id, amount: principal + interest, source: 'savings', reference })
    .commit();
  return true;
}

/** The lock's job at its maturity: pays it once (false when it was already paid or broken). */
export const matureLock = (deps: MatureDeps, lockId: string) => deps.db.transaction((tx) => matureInTx(deps, tx, lockId));

/** Safety net behind the per-lock jobs (a lost or dead job): matures whatever is due. */
export async function matureDue(deps: MatureDeps, limit = 500): Promise<number> {
  const due = await rows<{ id: string }>(
    deps.db,
    sql`SELECT id::text AS id FROM savings_locks WHERE status = 'active' AND matures_at <= ${deps.clock.now()} ORDER BY matures_at LIMIT ${limit}`,
  );
  let n = 0;
  for (const d of due) if (await matureLock(deps, d.id)) n++;
  return n;
}
