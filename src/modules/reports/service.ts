import type { transactionReports } from './schema.js';
import type { Narrowed, RowOf } from '../../db/rows.js';
import { sql } from 'drizzle-orm';
import { one, rows, type Db, type Executor } from '../../db/client.js';
import type { ReadReplica } from '../../db/replica.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { page } from '../../kernel/paging.js';
import type { Clock } from '../../kernel/clock.js';
import { sha256 } from '../../lib/crypto.js';
import { uuid } from '../../kernel/ids.js';
import { toNaira } from '../../kernel/money.js';
import type { Work } from '../../platform/change.js';
import { findCallerTransaction } from '../receipts/api.js';

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

type ReportRow = Narrowed<
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

const REPORT_COLS = sql.raw(
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

export interface IssueReportInput {
  message: string;
  stack?: string;
  url?: string;
  userAgent?: string;
  appVersion?: string;
}

export type ReportsService = ReturnType<typeof createReportsService>;

export function createReportsService({
  db,
  replica,
  clock,
  work,
  ipSalt,
}: {
  db: Db;
  /** The lists read from the replica when there is one (src/db/replica.ts). */
  replica: ReadReplica;
  clock: Clock;
  work: Work;
  ipSalt: string;
}) {
  const getReport = (exec: Executor, id: string) =>
    one<ReportRow>(exec, sql`SELECT ${REPORT_COLS} FROM transaction_reports WHERE id = ${id}`);

  return {
    /** The transaction must be the caller's (ledger entry on one of their accounts); otherwise NOT_FOUND. */
    async create(userId: string, input: { reference: string; category: ReportCategory; description: string }) {
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
    },

    async listMine(userId: string, opts: { status?: string; limit: number; offset: number }) {
      const list = await rows<ReportRow>(
        replica.forUser(userId),
        sql`SELECT ${REPORT_COLS} FROM transaction_reports WHERE user_id = ${userId} AND (${opts.status ?? null}::text IS NULL OR status = ${opts.status ?? null})
            ORDER BY seq DESC LIMIT ${opts.limit + 1} OFFSET ${opts.offset}`,
      );
      return page(list.map(reportView), opts.limit, opts.offset);
    },

    /** `actorId`: the operator, whose own resolutions show at once. */
    async adminList(actorId: string, opts: { status?: string; userId?: string; limit: number; offset: number }) {
      const list = await rows<ReportRow>(
        replica.forUser(actorId),
        sql`SELECT ${REPORT_COLS} FROM transaction_reports
            WHERE (${opts.status ?? null}::text IS NULL OR status = ${opts.status ?? null})
              AND (${opts.userId ?? null}::uuid IS NULL OR user_id = ${opts.userId ?? null}::uuid)
            ORDER BY seq DESC LIMIT ${opts.limit + 1} OFFSET ${opts.offset}`,
      );
      return page(
        list.map((r) => ({ ...reportView(r), userId: r.user_id })),
        opts.limit,
        opts.offset,
      );
    },

    /** open -> resolved once; the note goes to the user with the report_resolved notification. */
    async adminResolve(actorId: string, input: { id: string; note: string }) {
      return db.transaction(async (tx) => {
        const now = clock.now();
        const r = await one<ReportRow>(
          tx,
          sql`UPDATE transaction_reports SET status = 'resolved', resolution_note = ${input.note}, resolved_by = ${actorId}, resolved_at = ${now}, updated_at = ${now}
              WHERE id = ${input.id} AND status = 'open' RETURNING ${REPORT_COLS}`,
        );
        if (!r) {
          if (!(await getReport(tx, input.id))) throw notFound('Report');
          throw new AppError('CONFLICT', 'This report is already resolved');
        }
        await work
          .change(tx)
          .notify({
            userId: r.user_id,
            kind: 'report_resolved',
            title: 'Your report was resolved',
            body: input.note,
            data: { reportId: r.id, reference: r.reference },
          })
          .commit();
        return { ...reportView(r), userId: r.user_id };
      });
    },

    /** Public report-issue: stored for operators; the client IP is kept only as a salted hash (abuse triage). */
    async recordIssue(input: IssueReportInput, ip: string) {
      const id = uuid();
      await db.execute(sql`INSERT INTO issue_reports (id, message, stack, url, user_agent, app_version, ip_hash, created_at)
                           VALUES (${id}, ${input.message}, ${input.stack ?? null}, ${input.url ?? null}, ${input.userAgent ?? null},
                                   ${input.appVersion ?? null}, ${sha256(`${ipSalt}:${ip}`).slice(0, 32)}, ${clock.now()})`);
      return { id };
    },

    async adminListIssues(opts: { limit: number; offset: number }) {
      const db = replica.lagTolerant;
      const list = await rows<{
        id: string;
        message: string;
        stack: string | null;
        url: string | null;
        user_agent: string | null;
        app_version: string | null;
        ip_hash: string | null;
        created_at: Date;
      }>(
        db,
        sql`SELECT id::text AS id, message, stack, url, user_agent, app_version, ip_hash, created_at FROM issue_reports
            ORDER BY seq DESC LIMIT ${opts.limit + 1} OFFSET ${opts.offset}`,
      );
      return page(
        list.map((r) => ({
          id: r.id,
          message: r.message,
          stack: r.stack,
          url: r.url,
          userAgent: r.user_agent,
          appVersion: r.app_version,
          reporter: r.ip_hash,
          createdAt: new Date(r.created_at).toISOString(),
        })),
        opts.limit,
        opts.offset,
      );
    },
  };
}
