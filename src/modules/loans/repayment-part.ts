import { sql, type SQL } from 'drizzle-orm';
import type { Part } from '../../db/parts.js';

/**
 * 'wallet.credited': the repayment's job, written only while the user has a loan not yet repaid (a plain read;
 * onWalletCredited re-checks under lock). `enqueue` is the job's insert over a relation (jobs.enqueueSql), so the part
 * is loans' own statement.
 */
export function repaymentJobPart(userId: string, enqueue: (from: SQL) => SQL): Part {
  return {
    ctes: (when, name) =>
      sql`${name('repayment')} AS (${enqueue(sql`${when} WHERE EXISTS (SELECT 1 FROM loans WHERE user_id = ${userId}::uuid AND status <> 'repaid')`)})`,
  };
}
