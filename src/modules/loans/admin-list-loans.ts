import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client.js';
import { page } from '../../kernel/paging.js';
import { emailsOf } from '../identity/api.js';
import { LOAN_COLUMNS, present, type LoanRow } from './loan-row.js';

/** adminListLoans: operators' collection view, loans by status, newest first, with the borrower's e-mail. */
export async function adminListLoans(deps: { db: Db }, q: { status?: 'open' | 'overdue' | 'repaid'; limit: number; offset: number }) {
  const list = await rows<LoanRow>(
    deps.db,
    sql`SELECT ${LOAN_COLUMNS} FROM loans
        ${q.status ? sql`WHERE status = ${q.status}` : sql``} ORDER BY created_at DESC, id DESC LIMIT ${q.limit + 1} OFFSET ${q.offset}`,
  );
  const emails = await emailsOf(
    deps.db,
    list.map((r) => r.user_id),
  );
  return page(
    list.map((r) => ({ ...present(r), userId: r.user_id, email: emails.get(r.user_id)! })),
    q.limit,
    q.offset,
  );
}
