import { sql, type SQL } from 'drizzle-orm';
import { mergeable, type Part } from '../../db/parts.js';

/**
 * The job a 'wallet.credited' part writes: its payload (checked as its queue's) and its insert over a relation whose
 * rows carry the payload (jobs.enqueueEachSql); `key` names the queue, so credits of one batch share one statement.
 */
export interface EventJob {
  key: string;
  payload: unknown;
  insertEach(from: SQL, payload: SQL): SQL;
}

/**
 * 'wallet.credited': the repayment's job, written only while the user has a loan not yet repaid (a plain read;
 * onWalletCredited re-checks under lock). The part is loans' own statement, mergeable: the credits of a batch of
 * postings write their jobs in one.
 */
export function repaymentJobPart(userId: string, job: EventJob): Part {
  return mergeable(`loans.repayment:${job.key}`, { userId, job: job.payload }, (each, name) => {
    const open = sql`EXISTS (SELECT 1 FROM loans WHERE user_id = (each.data ->> 'userId')::uuid AND status <> 'repaid')`;
    return sql`${name('repayment')} AS (${job.insertEach(sql`${each} WHERE ${open}`, sql`each.data -> 'job'`)})`;
  });
}
