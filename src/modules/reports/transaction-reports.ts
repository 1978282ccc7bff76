import { sql } from 'drizzle-orm';
import { one, rows } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { page } from '../../kernel/paging.js';
import { uuid } from '../../kernel/ids.js';
import { findCallerTransaction } from '../receipts/api.js';
import type { ReportsDeps } from './deps.js';
import { REPORT_COLS, reportView, type ReportCategory, type ReportRow } from './report-rows.js';

/** The transaction must be the caller's (ledger entry on one of their accounts); otherwise NOT_FOUND. */
export async function create(
  { db, clock }: ReportsDeps,
  userId: string,
  input: { reference: string; category: ReportCategory; description: string },
) {
  const tx = await findCallerTransaction(db, userId, input.reference);
  if (!tx) throw notFound('Transaction');
  const amount = tx.vtu ? tx.vtu.amount : tx.walletAmount < 0n ? -tx.walletAmount : tx.walletAmount;
  const type = tx.vtu ? `vtu:${tx.vtu.service}` : tx.type;
  const now = clock.now();
  const r = await one<ReportRow>(
    db,
    sql`INSERT INTO transaction_reports (id, user_id, reference, transaction_type, amount, category, description, status, created_at, updated_at)
        VALUES (${uuid()}, ${userId}, ${tx.reference}, ${type}, ${amount === 0n ? null : amount}, ${input.category}, ${input.description}, 'open', ${now}, ${now})
        ON CONFLICT (user_id, reference) WHERE status = 'open' DO NOTHING RETURNING ${REPORT_COLS}`,
  );
  if (!r) throw new AppError('CONFLICT', 'You already have an open report for this transaction; we will update you on it');
  return reportView(r);
}

/** The caller's reports, newest first, by status. */
export async function listMine({ replica }: ReportsDeps, userId: string, opts: { status?: string; limit: number; offset: number }) {
  const list = await rows<ReportRow>(
    replica.forUser(userId),
    sql`SELECT ${REPORT_COLS} FROM transaction_reports WHERE user_id = ${userId} AND (${opts.status ?? null}::text IS NULL OR status = ${opts.status ?? null})
        ORDER BY seq DESC LIMIT ${opts.limit + 1} OFFSET ${opts.offset}`,
  );
  return page(list.map(reportView), opts.limit, opts.offset);
}
