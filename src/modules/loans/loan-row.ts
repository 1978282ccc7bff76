import type { loans as loansTable } from './schema.js';
import type { Narrowed, RowOf } from '../../db/rows.js';
import { sql } from 'drizzle-orm';
import { one, type Executor } from '../../db/client.js';
import { toNaira } from '../../kernel/money.js';
import { iso } from '../growth/api.js';

/** A loan as the use cases read it (amounts in kobo, as text). */
export type LoanRow = Narrowed<
  Pick<
    RowOf<typeof loansTable>,
    | 'id'
    | 'user_id'
    | 'principal_kobo'
    | 'fee_kobo'
    | 'late_fee_kobo'
    | 'repaid_kobo'
    | 'status'
    | 'created_at'
    | 'due_at'
    | 'overdue_at'
    | 'repaid_at'
  >,
  { status: 'open' | 'overdue' | 'repaid' }
>;

export const LOAN_COLUMNS =
  sql.raw(`id::text AS id, user_id::text AS user_id, principal_kobo::text AS principal_kobo, fee_kobo::text AS fee_kobo,
  late_fee_kobo::text AS late_fee_kobo, repaid_kobo::text AS repaid_kobo, status, created_at, due_at, overdue_at, repaid_at`);

const owed = (r: LoanRow) => BigInt(r.principal_kobo) + BigInt(r.fee_kobo) + BigInt(r.late_fee_kobo);
export const outstandingOf = (r: LoanRow) => owed(r) - BigInt(r.repaid_kobo);

export function present(r: LoanRow) {
  return {
    id: r.id,
    principal: toNaira(r.principal_kobo),
    fee: toNaira(r.fee_kobo),
    lateFee: toNaira(r.late_fee_kobo),
    repaid: toNaira(r.repaid_kobo),
    outstanding: toNaira(outstandingOf(r)),
    status: r.status,
    createdAt: iso(r.created_at)!,
    dueAt: iso(r.due_at)!,
    overdueAt: iso(r.overdue_at),
    repaidAt: iso(r.repaid_at),
  };
}

/** The user's loan not yet repaid (at most one: a partial unique index), under its row lock with `lock`. */
export const openLoan = (exec: Executor, userId: string, lock = false) =>
  one<LoanRow>(
    exec,
    sql`SELECT ${LOAN_COLUMNS} FROM loans WHERE user_id = ${userId} AND status <> 'repaid' ${lock ? sql`FOR UPDATE` : sql``}`,
  );
