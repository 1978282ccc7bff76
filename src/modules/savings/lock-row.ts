import type { savingsLocks as savingsLocksTable } from './schema.js';
import type { Narrowed, RowOf } from '../../db/rows.js';
import { sql } from 'drizzle-orm';
import { toNaira } from '../../kernel/money.js';
import { iso } from '../growth/api.js';

/** A savings lock as the use cases read it (amounts in kobo, as text). */
export type LockRow = Narrowed<
  Pick<
    RowOf<typeof savingsLocksTable>,
    | 'id'
    | 'principal_kobo'
    | 'days'
    | 'rate_bps'
    | 'break_fee_bps'
    | 'interest_kobo'
    | 'status'
    | 'payout_kobo'
    | 'fee_kobo'
    | 'created_at'
    | 'matures_at'
    | 'closed_at'
  >,
  { status: 'active' | 'matured' | 'broken' }
>;

export const LOCK_COLUMNS =
  sql.raw(`id::text AS id, principal_kobo::text AS principal_kobo, days, rate_bps, break_fee_bps, interest_kobo::text AS interest_kobo,
  status, payout_kobo::text AS payout_kobo, fee_kobo::text AS fee_kobo, created_at, matures_at, closed_at`);

export function present(r: LockRow) {
  return {
    id: r.id,
    amount: toNaira(r.principal_kobo),
    days: r.days,
    interestRatePct: r.rate_bps / 100,
    interest: toNaira(r.interest_kobo),
    breakFeePct: r.break_fee_bps / 100,
    status: r.status,
    payout: r.payout_kobo === null ? null : toNaira(r.payout_kobo),
    fee: r.fee_kobo === null ? null : toNaira(r.fee_kobo),
    createdAt: iso(r.created_at)!,
    maturesAt: iso(r.matures_at)!,
    closedAt: iso(r.closed_at),
  };
}
