import type { transactionReports } from './schema.js';
import type { Narrowed, RowOf } from '../../db/rows.js';
import { sql } from 'drizzle-orm';
import { toNaira } from '../../kernel/money.js';

export const REPORT_CATEGORIES = [
  'not_delivered',
  'failed_not_refunded',
  'wrong_amount',
  'wrong_recipient',
  'duplicate_charge',
  'unauthorised',
  'other',
] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number];

export type ReportRow = Narrowed<
  Pick<
    RowOf<typeof transactionReports>,
    | 'id'
    | 'user_id'
    | 'reference'
    | 'transaction_type'
    | 'amount'
    | 'category'
    | 'description'
    | 'status'
    | 'resolution_note'
    | 'resolved_at'
    | 'created_at'
  >,
  { category: ReportCategory; status: 'open' | 'resolved' }
>;

export const REPORT_COLS = sql.raw(
  `id::text AS id, user_id::text AS user_id, reference, transaction_type, amount::text AS amount, category, description, status,
   resolution_note, resolved_at, created_at`,
);

export function reportView(r: ReportRow) {
  return {
    id: r.id,
    reference: r.reference,
    transactionType: r.transaction_type,
    amount: r.amount === null ? null : toNaira(r.amount),
    category: r.category,
    description: r.description,
    status: r.status,
    resolutionNote: r.resolution_note,
    resolvedAt: r.resolved_at ? new Date(r.resolved_at).toISOString() : null,
    createdAt: new Date(r.created_at).toISOString(),
  };
}
