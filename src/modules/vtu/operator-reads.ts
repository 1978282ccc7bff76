import { sql, type SQL } from 'drizzle-orm';
import { one, rows, type Executor } from '../../db/client.js';
import { readOf, type Read } from '../../platform/reads.js';
import type { PurchaseStatus } from './read-model.js';
import type { PurchaseChannel } from './repository.js';

/**
 * What the operators' screens read of the purchases (vtu_transactions): the transaction search, the CSV export and
 * the customer page. Each is the statement the console or the customer page sent before, moved here with its index
 * (docs/architecture.md, "Who owns each table").
 */

/** The channels a purchase is made on (vtu_transactions.channel, migration 1100). */
export const PURCHASE_CHANNELS = ['app', 'ussd', 'whatsapp'] as const satisfies readonly PurchaseChannel[];

export const PURCHASE_SORTS = ['newest', 'oldest', 'amount_desc', 'amount_asc'] as const;
export type PurchaseSort = (typeof PURCHASE_SORTS)[number];
const ORDER: Record<PurchaseSort, SQL> = {
  newest: sql`t.created_at DESC, t.id DESC`,
  oldest: sql`t.created_at ASC, t.id ASC`,
  amount_desc: sql`t.amount DESC, t.created_at DESC, t.id DESC`,
  amount_asc: sql`t.amount ASC, t.created_at DESC, t.id DESC`,
};

/** A search's keys and filters: every one given must match (`phone`: the recipient or the notification phone). */
export interface PurchaseSearch {
  reference?: string;
  phone?: string;
  userId?: string;
  status?: PurchaseStatus;
  service?: string;
  /** Where it was made: the app (and the API), the USSD menu or the WhatsApp assistant (issue 46). */
  channel?: PurchaseChannel;
  range: { start: Date; end: Date } | null;
  sort: PurchaseSort;
  limit: number;
  offset: number;
}

/**
 * The search's one statement, reading one row past the page (test/console/transactions-search.test.ts reads its
 * plans). Each key has its index: reference (unique), phone (recipient and phone indexes, migration 1050), user
 * (vtu_transactions_user_idx), otherwise the date range on vtu_transactions_dashboard_idx (created_at first).
 * Status, service and channel filter what those indexes give.
 */
export function purchaseSearchStatement(f: PurchaseSearch): SQL {
  const where: SQL[] = [];
  if (f.reference !== undefined) where.push(sql`t.reference = ${f.reference}`);
  if (f.phone !== undefined) where.push(sql`(t.recipient = ${f.phone} OR t.phone = ${f.phone})`);
  if (f.userId !== undefined) where.push(sql`t.user_id = ${f.userId}`);
  if (f.status !== undefined) where.push(sql`t.status = ${f.status}`);
  if (f.service !== undefined) where.push(sql`t.service = ${f.service}`);
  if (f.channel !== undefined) where.push(sql`t.channel = ${f.channel}`);
  if (f.range) where.push(sql`t.created_at >= ${f.range.start} AND t.created_at < ${f.range.end}`);
  const cond = where.length ? sql.join(where, sql` AND `) : sql`TRUE`;
  return sql`SELECT t.id, t.reference, t.user_id, t.service, t.provider, t.recipient, t.phone, t.amount::text AS amount,
       t.status, t.channel, t.created_at, t.updated_at
    FROM vtu_transactions t
    WHERE ${cond} ORDER BY ${ORDER[f.sort]} LIMIT ${f.limit + 1} OFFSET ${f.offset}`;
}

export interface FoundPurchase {
  id: string;
  reference: string;
  userId: string;
  service: string;
  provider: string;
  recipient: string;
  phone: string | null;
  amount: bigint;
  status: PurchaseStatus;
  channel: PurchaseChannel;
  createdAt: Date;
  updatedAt: Date;
}

/** One page of the operators' purchase search, and whether more follow. */
export async function searchPurchases(exec: Executor, f: PurchaseSearch): Promise<{ items: FoundPurchase[]; hasMore: boolean }> {
  const list = await rows<{
    id: string;
    reference: string;
    user_id: string;
    service: string;
    provider: string;
    recipient: string;
    phone: string | null;
    amount: string;
    status: PurchaseStatus;
    channel: PurchaseChannel;
    created_at: string | Date;
    updated_at: string | Date;
  }>(exec, purchaseSearchStatement(f));
  return {
    items: list.slice(0, f.limit).map((r) => ({
      id: r.id,
      reference: r.reference,
      userId: r.user_id,
      service: r.service,
      provider: r.provider,
      recipient: r.recipient,
      phone: r.phone,
      amount: BigInt(r.amount),
      status: r.status,
      channel: r.channel,
      createdAt: new Date(r.created_at),
      updatedAt: new Date(r.updated_at),
    })),
    hasMore: list.length > f.limit,
  };
}

/** The purchases created in [start, end): how many (the export's progress). */
export async function countPurchasesCreated(exec: Executor, start: Date, end: Date): Promise<number> {
  const c = await one<{ n: number }>(
    exec,
    sql`SELECT count(*)::int AS n FROM vtu_transactions WHERE created_at >= ${start} AND created_at < ${end}`,
  );
  return c?.n ?? 0;
}

/** A purchase as the CSV export writes it: timestamps and kobo amounts as the database gives them (text). */
export type ExportedPurchase = Record<
  'id' | 'reference' | 'created_at' | 'at' | 'updated_at' | 'user_id' | 'service' | 'provider' | 'recipient' | 'status',
  string
> &
  Record<'network' | 'plan_id' | 'product' | 'failure_reason', string | null> &
  Record<'amount' | 'wholesale' | 'markup', string>;

/**
 * A keyset page of the purchases created in [start, end), oldest first: after `after` ([at, id] of the previous
 * page's last row: its `at` and `id`), never OFFSET.
 */
export function exportPurchasePage(
  exec: Executor,
  r: { start: Date; end: Date },
  after: readonly string[] | null,
  limit: number,
): Promise<ExportedPurchase[]> {
  return rows<ExportedPurchase>(
    exec,
    sql`SELECT id, reference, created_at, created_at::text AS at, updated_at, user_id, service, provider, network, recipient, plan_id, product,
               amount::text AS amount, wholesale::text AS wholesale, markup::text AS markup, status, failure_reason
        FROM vtu_transactions
        WHERE created_at < ${r.end} AND ${after ? sql`(created_at, id) > (${after[0]}::timestamptz, ${after[1]}::uuid)` : sql`created_at >= ${r.start}`}
        ORDER BY created_at, id LIMIT ${limit}`,
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The purchases' references (`vtu_…`) by their ids, for a page of rows that name purchases by id (one statement). */
export async function purchaseReferences(exec: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  const valid = [...new Set(ids.filter((id) => UUID.test(id)))];
  if (!valid.length) return new Map();
  const list = await rows<{ id: string; reference: string }>(
    exec,
    sql`SELECT id::text AS id, reference FROM vtu_transactions WHERE id = ANY(${`{${valid.join(',')}}`}::uuid[])`,
  );
  return new Map(list.map((r) => [r.id, r.reference]));
}

/** Who made the purchase with this reference (null: no such purchase). */
export async function purchaserOf(exec: Executor, reference: string): Promise<string | null> {
  const r = await one<{ user_id: string }>(exec, sql`SELECT user_id::text AS user_id FROM vtu_transactions WHERE reference = ${reference}`);
  return r?.user_id ?? null;
}

/** A purchase as the customer page lists it (JSON: amount in kobo as text, created_at as text). */
export interface RecentPurchase {
  id: string;
  reference: string;
  service: string;
  provider: string;
  recipient: string;
  amount: string;
  status: string;
  created_at: string;
}

/**
 * The customer's last `limit` purchases, newest first, as a read (platform/reads.ts): the customer page sends it in the
 * round trip of its own statement (runReads). On vtu_transactions_user_idx.
 */
export function recentPurchasesRead(userId: string, limit: number): Read<RecentPurchase[]> {
  return readOf<RecentPurchase[]>(
    `vtu.recent-purchases:${userId}:${limit}`,
    sql`SELECT json_agg(v ORDER BY v.created_at DESC) FROM (
          SELECT id, reference, service, provider, recipient, amount::text AS amount, status, created_at FROM vtu_transactions
          WHERE user_id = ${userId} ORDER BY created_at DESC, id DESC LIMIT ${limit}) v`,
  );
}
