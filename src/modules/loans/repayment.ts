import { sql } from 'drizzle-orm';
import { one, type Tx } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { prefixedId } from '../../kernel/ids.js';
import type { Work } from '../../platform/change.js';
import { LOAN_COLUMNS, outstandingOf, type LoanRow } from './loan-row.js';

/** Moves up to `amount` from the wallet to the loan; closes the loan (and earns its fees) when fully paid. */
export async function applyRepayment(
  deps: { clock: Clock; work: Work },
  tx: Tx,
  loan: LoanRow,
  amount: bigint,
  how: 'manual' | 'auto' | 'due',
): Promise<LoanRow> {
  const now = deps.clock.now();
  await deps.work
    .change(tx)
    .post({
      reference: prefixedId('lnr'),
      type: 'loan_repayment',
      description: how === 'manual' ? 'Loan repayment' : 'Loan repayment (automatic)',
      metadata: { loanId: loan.id },
      entries: [
        { account: { user: loan.user_id, kind: 'wallet' }, amount: -amount },
        { account: { user: loan.user_id, kind: 'loan' }, amount },
      ],
    })
    .commit();
  const closes = amount === outstandingOf(loan);
  const r = (await one<LoanRow>(
    tx,
    sql`UPDATE loans SET repaid_kobo = repaid_kobo + ${amount}, status = ${closes ? 'repaid' : loan.status}, repaid_at = ${closes ? now : null}
        WHERE id = ${loan.id} RETURNING ${LOAN_COLUMNS}`,
  ))!;
  if (!closes) return r;
  // Fees sit in loan_book until collected, so a loan never repaid never shows as revenue.
  const fees = BigInt(r.fee_kobo) + BigInt(r.late_fee_kobo);
  const change = deps.work.change(tx);
  if (fees > 0n) {
    change.post({
      reference: `loan_fees_${r.id}`,
      type: 'loan_fee_earned',
      description: 'Loan fees earned',
      entries: [
        { account: { system: 'loan_book' }, amount: -fees },
        { account: { system: 'revenue' }, amount: fees },
      ],
    });
  }
  await change
    .notify({
      userId: r.user_id,
      kind: 'general',
      title: 'Loan repaid',
      body: 'Your loan is fully repaid. Thank you!',
      data: { loanId: r.id, event: 'loan_repaid' },
    })
    .commit();
  return r;
}
