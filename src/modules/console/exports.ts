import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../db/client.js';
import { HOUR } from '../../kernel/clock.js';
import { emailsOf } from '../identity/api.js';
import { countPurchasesCreated, exportPurchasePage } from '../vtu/api.js';
import { csvLine, koboText } from './csv.js';
import type { Range } from './range.js';

export const EXPORT_KINDS = ['transactions', 'ledger', 'topups', 'audit'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/** Rows per keyset page: one statement reads a page, one write hands it to the file; memory holds one page. */
export const EXPORT_PAGE = 1000;

type Cells = (string | number | null)[];
interface Page {
  lines: Cells[];
  /** Where the next page starts; null when this was the last. */
  next: string[] | null;
}

/**
 * One export kind: its header, an estimate of its rows for the progress bar, and keyset pages over the range (never
 * OFFSET, never the whole range in memory). Each page's statement is bounded by an index (docs/scaling.md).
 */
interface ExportSource {
  header: string[];
  /** The rows the export will write (exact, or an upper bound), and what the pages need to know beforehand. */
  plan(db: Db, r: Range): Promise<{ total: number; bounds: string[] }>;
  page(db: Db, r: Range, bounds: string[], after: string[] | null, limit: number): Promise<Page>;
}

/** The plan of an export whose pages walk one table's created_at: its row count in the range, no bounds needed. */
function countCreatedIn(table: 'topup_intents' | 'audit_log'): ExportSource['plan'] {
  return async (db, r) => {
    const c = await one<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE created_at >= ${r.start} AND created_at < ${r.end}`,
    );
    return { total: c?.n ?? 0, bounds: [] };
  };
}

/** An instant in Lagos time (UTC+01:00 all year, no daylight saving), as the business reads its day (issue 44). */
const ts = (v: string | null) => (v === null ? null : new Date(new Date(v).getTime() + HOUR).toISOString().replace('Z', '+01:00'));

const transactions: ExportSource = {
  header: [
    'id',
    'reference',
    'created_at',
    'updated_at',
    'user_id',
    'service',
    'provider',
    'network',
    'recipient',
    'product',
    'amount_naira',
    'wholesale_naira',
    'markup_naira',
    'status',
    'failure_reason',
  ],
  plan: async (db, r) => ({ total: await countPurchasesCreated(db, r.start, r.end), bounds: [] }),
  async page(db, r, _bounds, after, limit) {
    const list = await exportPurchasePage(db, r, after, limit);
    const last = list.at(-1);
    return {
      lines: list.map((t) => [
        t.id,
        t.reference,
        ts(t.created_at),
        ts(t.updated_at),
        t.user_id,
        t.service,
        t.provider,
        t.network,
        t.recipient,
        t.plan_id ?? t.product,
        koboText(t.amount),
        koboText(t.wholesale),
        koboText(t.markup),
        t.status,
        t.failure_reason,
      ]),
      next: last && list.length === limit ? [last.at, last.id] : null,
    };
  },
};

const ledger: ExportSource = {
  header: ['entry_id', 'created_at', 'reference', 'type', 'description', 'account', 'user_id', 'amount_naira', 'balance_after_naira'],
  async plan(db, r) {
    // The range's id bounds through the BRIN index on created_at; the pages then walk the primary key between them.
    // `id + 0`: plain min(id) / max(id) are planned as a walk of the primary key from either end, filtering on
    // created_at, which reads every entry before the range (docs/scaling.md has both plans).
    const b = await one<{ lo: string | null; hi: string | null }>(
      db,
      sql`SELECT min(id + 0)::text AS lo, max(id + 0)::text AS hi FROM ledger_entries WHERE created_at >= ${r.start} AND created_at < ${r.end}`,
    );
    if (!b?.lo || !b.hi) return { total: 0, bounds: ['0', '0'] };
    return { total: Number(BigInt(b.hi) - BigInt(b.lo) + 1n), bounds: [b.lo, b.hi] };
  },
  async page(db, r, bounds, after, limit) {
    const [lo = '0', hi = '0'] = bounds;
    if (hi === '0') return { lines: [], next: null };
    type Row = Record<'id' | 'created_at' | 'reference' | 'type' | 'description' | 'code' | 'amount', string> &
      Record<'user_id' | 'balance_after', string | null>;
    const list = await rows<Row>(
      db,
      sql`SELECT e.id::text AS id, e.created_at, t.reference, t.type, t.description, a.code, a.user_id,
                 e.amount::text AS amount, e.balance_after::text AS balance_after
          FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id JOIN accounts a ON a.id = e.account_id
          WHERE e.id > ${after ? after[0] : String(BigInt(lo) - 1n)}::bigint AND e.id <= ${hi}::bigint
            AND e.created_at >= ${r.start} AND e.created_at < ${r.end}
          ORDER BY e.id LIMIT ${limit}`,
    );
    const last = list.at(-1);
    return {
      lines: list.map((e) => [
        e.id,
        ts(e.created_at),
        e.reference,
        e.type,
        e.description,
        e.code,
        e.user_id,
        koboText(e.amount),
        koboText(e.balance_after),
      ]),
      next: last && list.length === limit ? [last.id] : null,
    };
  },
};

const topups: ExportSource = {
  header: [
    'id',
    'reference',
    'created_at',
    'user_id',
    'processor',
    'origin',
    'amount_naira',
    'amount_paid_naira',
    'status',
    'channel',
    'paid_at',
    'settled_at',
    'failure_reason',
  ],
  plan: countCreatedIn('topup_intents'),
  async page(db, r, _bounds, after, limit) {
    type Row = Record<'id' | 'reference' | 'created_at' | 'at' | 'user_id' | 'processor' | 'origin' | 'amount' | 'status', string> &
      Record<'amount_paid' | 'channel' | 'paid_at' | 'settled_at' | 'failure_reason', string | null>;
    const list = await rows<Row>(
      db,
      sql`SELECT id, reference, created_at, created_at::text AS at, user_id, processor, origin, amount::text AS amount,
                 amount_paid::text AS amount_paid, status, channel, paid_at, settled_at, failure_reason
          FROM topup_intents
          WHERE created_at < ${r.end} AND ${after ? sql`(created_at, id) > (${after[0]}::timestamptz, ${after[1]}::uuid)` : sql`created_at >= ${r.start}`}
          ORDER BY created_at, id LIMIT ${limit}`,
    );
    const last = list.at(-1);
    return {
      lines: list.map((t) => [
        t.id,
        t.reference,
        ts(t.created_at),
        t.user_id,
        t.processor,
        t.origin,
        koboText(t.amount),
        koboText(t.amount_paid),
        t.status,
        t.channel,
        ts(t.paid_at),
        ts(t.settled_at),
        t.failure_reason,
      ]),
      next: last && list.length === limit ? [last.at, last.id] : null,
    };
  },
};

/** The operators' audit trail (the registry's rows and the older handler-written ones), oldest first. */
const audit: ExportSource = {
  header: [
    'id',
    'created_at',
    'operator_id',
    'operator_email',
    'roles',
    'operation',
    'outcome',
    'targets',
    'request_id',
    'ip',
    'input',
    'before',
    'after',
    'details',
  ],
  plan: countCreatedIn('audit_log'),
  async page(db, r, _bounds, after, limit) {
    type Row = Record<'id' | 'created_at' | 'at' | 'action', string> &
      Record<'actor_id' | 'roles' | 'outcome' | 'targets' | 'request_id' | 'ip' | 'input' | 'before' | 'after' | 'details', string | null>;
    // Keyset on (created_at, id): audit_log_time_idx (migration 1001) read backwards.
    const list = await rows<Row>(
      db,
      sql`SELECT a.id::text AS id, a.created_at, a.created_at::text AS at, a.actor_id::text AS actor_id, array_to_string(a.roles, ' ') AS roles,
                 a.action, a.outcome,
                 coalesce(array_to_string(a.target_ids, ' '), CASE WHEN a.subject_id IS NULL THEN NULL ELSE a.subject_type || ':' || a.subject_id END) AS targets,
                 a.request_id, a.ip, a.input::text AS input, a.before_state::text AS before, a.after_state::text AS after, a.details::text AS details
          FROM audit_log a
          WHERE a.created_at < ${r.end} AND ${after ? sql`(a.created_at, a.id) > (${after[0]}::timestamptz, ${after[1]}::uuid)` : sql`a.created_at >= ${r.start}`}
          ORDER BY a.created_at, a.id LIMIT ${limit}`,
    );
    // The operators' e-mails are identity's: one statement per page.
    const emails = await emailsOf(
      db,
      list.flatMap((a) => (a.actor_id ? [a.actor_id] : [])),
    );
    const last = list.at(-1);
    return {
      lines: list.map((a) => [
        a.id,
        ts(a.created_at),
        a.actor_id,
        a.actor_id ? (emails.get(a.actor_id) ?? null) : null,
        a.roles,
        a.action,
        a.outcome,
        a.targets,
        a.request_id,
        a.ip,
        a.input,
        a.before,
        a.after,
        a.details,
      ]),
      next: last && list.length === limit ? [last.at, last.id] : null,
    };
  },
};

const SOURCES: Record<ExportKind, ExportSource> = { transactions, ledger, topups, audit };

/**
 * Writes one export to `filePath` page by page: each page is read, turned into CSV and written, waiting for the
 * file to drain before the next read, so memory stays one page whatever the range (bench/export-memory.ts shows it).
 */
export async function writeExport(
  db: Db,
  kind: ExportKind,
  range: Range,
  filePath: string,
  progress: (done: number, total: number) => Promise<void>,
  pageSize = EXPORT_PAGE,
): Promise<{ rows: number; bytes: number }> {
  const source = SOURCES[kind];
  const { total, bounds } = await source.plan(db, range);
  await progress(0, total);
  const out = createWriteStream(filePath, { mode: 0o600, flags: 'w' });
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => undefined);
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await Promise.race([once(out, 'drain'), failed]);
  };
  let written = 0;
  try {
    // A byte-order mark so spreadsheet programs read the file as UTF-8 (names, ₦ in descriptions).
    await write('\uFEFF' + csvLine(source.header));
    let after: string[] | null = null;
    do {
      const p = await source.page(db, range, bounds, after, pageSize);
      if (p.lines.length) await write(p.lines.map(csvLine).join(''));
      written += p.lines.length;
      after = p.next;
      await progress(written, Math.max(total, written));
    } while (after);
  } finally {
    out.end();
  }
  await Promise.race([once(out, 'finish'), failed]);
  await progress(written, written);
  return { rows: written, bytes: out.bytesWritten };
}
