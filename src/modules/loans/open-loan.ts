import { sql, type SQL } from 'drizzle-orm';

/**
 * 'wallet.credited': the repayment's job is written only while the job's user (`payload ->> 'userId'` of the growth job's event)
 * has a loan not yet repaid (a plain read; onWalletCredited re-checks under lock). A module-level condition, so the
 * credits of a batch of postings write their jobs in one statement.
 */
export const hasOpenLoan = (job: SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM loans WHERE user_id = (${job} -> 'payload' ->> 'userId')::uuid AND status <> 'repaid')`;
