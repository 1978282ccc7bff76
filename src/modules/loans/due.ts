import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../db/client.js';
import { DAY, lagosDate, type Clock } from '../../kernel/clock.js';
import { formatNaira, toNaira } from '../../kernel/money.js';
import type { Work } from '../../platform/change.js';
import { applyBps, bps, iso, lockedBalance, type GrowthSettingsStore } from '../growth/api.js';
import { LOAN_COLUMNS, outstandingOf, type LoanRow } from './loan-row.js';
import { applyRepayment } from './repayment.js';

/** Overdue loans get a reminder this often until repaid. */
export const OVERDUE_REMINDER_EVERY_DAYS = 7;

export interface DueDeps {
  db: Db;
  clock: Clock;
  work: Work;
  settings: GrowthSettingsStore;
}

/** Due date: collect what the wallet holds; what is left becomes overdue with the late fee. */
export async function processDue(deps: DueDeps, loanId: string): Promise<void> {
  const { db, clock, work, settings } = deps;
  await db.transaction(async (tx) => {
    const peek = await one<{ user_id: string }>(tx, sql`SELECT user_id::text AS user_id FROM loans WHERE id = ${loanId}`);
    if (!peek) return;
    const wallet = await lockedBalance(tx, peek.user_id, 'wallet');
    let loan = await one<LoanRow>(tx, sql`SELECT ${LOAN_COLUMNS} FROM loans WHERE id = ${loanId} FOR UPDATE`);
    const now = clock.now();
    if (!loan || loan.status !== 'open' || new Date(loan.due_at).getTime() > now.getTime()) return;
    const outstanding = outstandingOf(loan);
    const take = wallet < outstanding ? wallet : outstanding;
    if (take > 0n) loan = await applyRepayment(deps, tx, loan, take, 'due');
    if (loan.status === 'repaid') return;
    const s = await settings.get(tx);
    const lateFee = applyBps(BigInt(loan.principal_kobo), bps(s.loanLateFeePct));
    const r = (await one<LoanRow>(
      tx,
      sql`UPDATE loans SET status = 'overdue', overdue_at = ${now}, last_reminded_at = ${now}, late_fee_kobo = ${lateFee} WHERE id = ${loan.id} RETURNING ${LOAN_COLUMNS}`,
    ))!;
    // One change: the late fee and the notice that names it.
    const change = work.change(tx);
    if (lateFee > 0n) {
      change.post({
        reference: `loan_late_${loan.id}`,
        type: 'loan_late_fee',
        description: 'Late fee on overdue loan',
        metadata: { loanId: loan.id },
        entries: [
          { account: { user: loan.user_id, kind: 'loan' }, amount: -lateFee },
          { account: { system: 'loan_book' }, amount: lateFee },
        ],
      });
    }
    await change
      .notify({
        userId: r.user_id,
        kind: 'loan_due',
        title: 'Loan overdue',
        body: `Your loan is overdue: ${formatNaira(outstandingOf(r))} is outstanding${lateFee > 0n ? `, including a ${formatNaira(lateFee)} late fee` : ''}. Money added to your wallet repays it automatically.`,
        data: { loanId: r.id, stage: 'overdue', outstanding: toNaira(outstandingOf(r)), lateFee: toNaira(lateFee) },
      })
      .commit();
  });
}

/** The reminder before the due date, while the loan is still open. */
export async function remindLoan(deps: { db: Db; work: Work }, loanId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const loan = await one<LoanRow>(tx, sql`SELECT ${LOAN_COLUMNS} FROM loans WHERE id = ${loanId}`);
    if (!loan || loan.status !== 'open') return;
    await deps.work
      .change(tx)
      .notify({
        userId: loan.user_id,
        kind: 'loan_due',
        title: 'Loan due soon',
        body: `${formatNaira(outstandingOf(loan))} is due on ${lagosDate(new Date(loan.due_at))}. We collect it from your wallet on the due date.`,
        data: {
          loanId: loan.id,
          dueAt: iso(loan.due_at),
          stage: 'soon',
          outstanding: toNaira(outstandingOf(loan)),
          dueDate: lagosDate(new Date(loan.due_at)),
        },
      })
      .commit();
  });
}

/** Hourly: due loans the per-loan job missed, and the weekly reminder of overdue ones. */
export async function processAllDue(deps: DueDeps, limit = 500): Promise<void> {
  const { db, clock, work } = deps;
  const now = clock.now();
  const due = await rows<{ id: string }>(
    db,
    sql`SELECT id::text AS id FROM loans WHERE status = 'open' AND due_at <= ${now} ORDER BY due_at LIMIT ${limit}`,
  );
  for (const d of due) await processDue(deps, d.id);
  const before = new Date(now.getTime() - OVERDUE_REMINDER_EVERY_DAYS * DAY);
  // The UPDATE claims each reminder, so parallel sweeps never send it twice; notices commit with the claim.
  await db.transaction(async (tx) => {
    const stale = await rows<LoanRow>(
      tx,
      sql`UPDATE loans SET last_reminded_at = ${now} WHERE id IN (
            SELECT id FROM loans WHERE status = 'overdue' AND last_reminded_at <= ${before} ORDER BY last_reminded_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          RETURNING ${LOAN_COLUMNS}`,
    );
    await work
      .change(tx)
      .notify(
        ...stale.map((r) => ({
          userId: r.user_id,
          kind: 'loan_due' as const,
          title: 'Loan still overdue',
          body: `${formatNaira(outstandingOf(r))} is still outstanding. Money added to your wallet repays it automatically, or repay it now.`,
          data: { loanId: r.id, stage: 'still_overdue', outstanding: toNaira(outstandingOf(r)) },
        })),
      )
      .commit();
  });
}
