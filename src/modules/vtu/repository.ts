import type { Narrowed, RowOf } from '../../db/rows.js';
import type { vtuTransactions } from './schema.js';
import { sql, type SQL } from 'drizzle-orm';
import { one, rows, type Executor, type Tx } from '../../db/client.js';
import type { Change } from '../../platform/change.js';

export type PurchaseChannel = 'app' | 'ussd' | 'whatsapp';

/** Queries of the VTU module. Functions that are part of a money movement take the caller's `tx`. */
export type VtuRow = Narrowed<
  RowOf<typeof vtuTransactions>,
  { status: 'processing' | 'success' | 'failed'; details: Record<string, any> | null; inputs: Record<string, any> | null }
>;

const COLS = sql.raw(`id::text AS id, reference, request_id, user_id::text AS user_id, service, status, amount::text AS amount,
  wholesale::text AS wholesale, markup::text AS markup, recipient, network, plan_id, product, meter_type, quantity, phone, profile_id,
  provider, providers_tried, ported, channel, price_level, api_key, details, inputs, failure_reason, sent_at, requery_count, next_check_at, last_checked_at,
  last_provider_status, stuck_at, created_at, updated_at`);

/** The settled row as its parts read it (`when`, named `settled`). */
const SETTLED_COLUMNS = sql.raw(`id uuid, reference text, user_id uuid, service text, status text, amount bigint, wholesale bigint,
  markup bigint, recipient text, provider text, failure_reason text`);

export interface NewVtuRow {
  id: string;
  reference: string;
  requestId: string;
  userId: string;
  service: string;
  amount: bigint;
  wholesale: bigint;
  markup: bigint;
  recipient: string;
  network?: string;
  planId?: string;
  product?: string;
  meterType?: string;
  quantity?: number;
  phone?: string;
  profileId?: string;
  /** A kind's own inputs (kinds after the first six): the jsonb column `inputs`. */
  inputs?: Record<string, unknown>;
  provider: string;
  ported: boolean;
  /** Where the purchase is made: app (the default), ussd or whatsapp. */
  channel?: PurchaseChannel;
  /** The price level it is sold at (issue 45); the default level when not named. */
  priceLevel?: string;
  /** The API key it is made with (issue 45); none in a session, by USSD or by WhatsApp. */
  apiKey?: string;
  now: Date;
  nextCheckAt: Date;
}

export async function insertTransaction(tx: Tx, r: NewVtuRow): Promise<VtuRow> {
  return (await one<VtuRow>(
    tx,
    sql`INSERT INTO vtu_transactions (id, reference, request_id, user_id, service, status, amount, wholesale, markup, recipient, network, plan_id,
          product, meter_type, quantity, phone, profile_id, inputs, provider, providers_tried, ported, channel, price_level, api_key, sent_at, next_check_at, created_at, updated_at)
        VALUES (${r.id}, ${r.reference}, ${r.requestId}, ${r.userId}, ${r.service}, 'processing', ${r.amount}, ${r.wholesale}, ${r.markup}, ${r.recipient},
          ${r.network ?? null}, ${r.planId ?? null}, ${r.product ?? null}, ${r.meterType ?? null}, ${r.quantity ?? null}, ${r.phone ?? null},
          ${r.profileId ?? null}, ${r.inputs ? JSON.stringify(r.inputs) : null}::jsonb, ${r.provider}, ARRAY[${r.provider}]::text[], ${r.ported}, ${r.channel ?? 'app'}, ${r.priceLevel ?? 'customer'}, ${r.apiKey ?? null}, ${r.now}, ${r.nextCheckAt}, ${r.now}, ${r.now})
        RETURNING ${COLS}`,
  ))!;
}

/** The row insertTransaction would return, without reading it back (the purchase writes it as a part of its posting). */
export function newRowOf(r: NewVtuRow): VtuRow {
  return {
    id: r.id,
    reference: r.reference,
    request_id: r.requestId,
    user_id: r.userId,
    service: r.service,
    status: 'processing',
    amount: r.amount.toString(),
    wholesale: r.wholesale.toString(),
    markup: r.markup.toString(),
    recipient: r.recipient,
    network: r.network ?? null,
    plan_id: r.planId ?? null,
    product: r.product ?? null,
    meter_type: r.meterType ?? null,
    quantity: r.quantity ?? null,
    phone: r.phone ?? null,
    profile_id: r.profileId ?? null,
    inputs: r.inputs ?? null,
    provider: r.provider,
    providers_tried: [r.provider],
    ported: r.ported,
    channel: r.channel ?? 'app',
    price_level: r.priceLevel ?? 'customer',
    api_key: r.apiKey ?? null,
    details: null,
    failure_reason: null,
    sent_at: r.now,
    requery_count: 0,
    next_check_at: r.nextCheckAt,
    last_checked_at: null,
    last_provider_status: null,
    stuck_at: null,
    created_at: r.now,
    updated_at: r.now,
  };
}

/**
 * The purchase's row, written by the debit's change: it exists exactly when the money moved (reconciliation picks it
 * up from there if the process dies). The purchases of one batch of postings insert their rows in one statement.
 */
export function recordPurchase(change: Change, r: NewVtuRow): Change {
  const data = {
    ...r,
    amount: r.amount.toString(),
    wholesale: r.wholesale.toString(),
    markup: r.markup.toString(),
    channel: r.channel ?? 'app',
    priceLevel: r.priceLevel ?? 'customer',
    apiKey: r.apiKey ?? null,
    now: r.now.toISOString(),
    nextCheckAt: r.nextCheckAt.toISOString(),
  };
  return change.write(insertEach, data);
}

const insertEach = (each: SQL) =>
  sql`INSERT INTO vtu_transactions (id, reference, request_id, user_id, service, status, amount, wholesale, markup, recipient, network,
        plan_id, product, meter_type, quantity, phone, profile_id, inputs, provider, providers_tried, ported, channel, price_level, api_key, sent_at, next_check_at, created_at, updated_at)
      SELECT r.id, r.reference, r."requestId", r."userId", r.service, 'processing', r.amount, r.wholesale, r.markup, r.recipient, r.network,
        r."planId", r.product, r."meterType", r.quantity, r.phone, r."profileId", r.inputs, r.provider, ARRAY[r.provider], r.ported, r.channel, r."priceLevel", r."apiKey", r.now,
        r."nextCheckAt", r.now, r.now
      FROM ${each}, jsonb_to_record(each.data) AS r(id uuid, reference text, "requestId" text, "userId" uuid, service text, amount bigint,
        wholesale bigint, markup bigint, recipient text, network text, "planId" text, product text, "meterType" text, quantity int, phone text,
        "profileId" text, inputs jsonb, provider text, ported boolean, channel text, "priceLevel" text, "apiKey" text, now timestamptz, "nextCheckAt" timestamptz)`;

export async function getTransaction(exec: Executor, id: string): Promise<VtuRow | undefined> {
  return one<VtuRow>(exec, sql`SELECT ${COLS} FROM vtu_transactions WHERE id = ${id}`);
}

export async function getOwnTransaction(exec: Executor, userId: string, id: string): Promise<VtuRow | undefined> {
  return one<VtuRow>(exec, sql`SELECT ${COLS} FROM vtu_transactions WHERE id = ${id} AND user_id = ${userId}`);
}

export async function listOwnTransactions(
  exec: Executor,
  userId: string,
  f: { status?: string; service?: string; start?: Date; end?: Date; like?: string | null; limit: number; offset: number },
): Promise<VtuRow[]> {
  const conds: SQL[] = [sql`user_id = ${userId}`];
  if (f.status) conds.push(sql`status = ${f.status}`);
  if (f.service) conds.push(sql`service = ${f.service}`);
  // Issue 43: a range of Lagos days and a search, within the caller's rows (vtu_transactions_user_idx: user, created_at).
  if (f.start) conds.push(sql`created_at >= ${f.start}`);
  if (f.end) conds.push(sql`created_at < ${f.end}`);
  if (f.like)
    conds.push(sql`(reference ILIKE ${f.like} OR recipient ILIKE ${f.like} OR service ILIKE ${f.like} OR product ILIKE ${f.like}
                    OR network ILIKE ${f.like} OR plan_id ILIKE ${f.like} OR phone ILIKE ${f.like})`);
  return rows<VtuRow>(
    exec,
    sql`SELECT ${COLS} FROM vtu_transactions WHERE ${sql.join(conds, sql` AND `)}
        ORDER BY created_at DESC, id DESC LIMIT ${f.limit + 1} OFFSET ${f.offset}`,
  );
}

/**
 * The guarded state change: only a row still `processing` with the provider that answered moves, so a refund
 * or a success happens exactly once even when the purchase path and reconciliation race.
 */
export async function settle(
  /** The settlement's change: what else it writes (the buyer's notification, the event's writes) is made only if it settles the row. */
  change: Change,
  id: string,
  provider: string,
  to: 'success' | 'failed',
  f: { details?: Record<string, unknown>; failureReason?: string; now: Date; providerStatus: string },
): Promise<VtuRow | undefined> {
  const settled = await change.commitDeciding<VtuRow & { made: unknown }>(
    { alias: 'settled', columns: SETTLED_COLUMNS },
    (made) =>
      sql`WITH settled AS (
          UPDATE vtu_transactions SET status = ${to}, details = COALESCE(${f.details ? JSON.stringify(f.details) : null}::jsonb, details),
            failure_reason = ${f.failureReason ?? null}, next_check_at = NULL, last_provider_status = ${f.providerStatus}, updated_at = ${f.now}
          WHERE id = ${id} AND status = 'processing' AND provider = ${provider}
          RETURNING ${COLS})
        SELECT *, ${made(sql`settled`)} AS made FROM settled`,
  );
  if (!settled[0]) return undefined;
  const { made: _made, ...row } = settled[0];
  return row;
}

/** Fallback to the next provider (data A -> B), only while processing and still on `from`. */
export async function reroute(
  tx: Tx,
  id: string,
  from: string,
  to: string,
  wholesale: bigint,
  now: Date,
  nextCheckAt: Date,
): Promise<VtuRow | undefined> {
  return one<VtuRow>(
    tx,
    sql`UPDATE vtu_transactions SET provider = ${to}, providers_tried = array_append(providers_tried, ${to}), wholesale = ${wholesale},
          markup = amount - ${wholesale}, sent_at = ${now}, next_check_at = ${nextCheckAt}, requery_count = 0, last_provider_status = 'failed',
          updated_at = ${now}
        WHERE id = ${id} AND status = 'processing' AND provider = ${from}
        RETURNING ${COLS}`,
  );
}

export async function markPending(
  exec: Executor,
  id: string,
  provider: string,
  f: { nextCheckAt: Date; providerStatus: string; now: Date; stuck: boolean },
) {
  await exec.execute(
    sql`UPDATE vtu_transactions SET next_check_at = ${f.nextCheckAt}, last_provider_status = ${f.providerStatus}, updated_at = ${f.now},
          stuck_at = CASE WHEN ${f.stuck} THEN COALESCE(stuck_at, ${f.now}) ELSE stuck_at END
        WHERE id = ${id} AND status = 'processing' AND provider = ${provider}`,
  );
}

/** Claims due processing rows for a requery: pushes their next check out by a lease so other workers skip them. */
export async function claimDue(exec: Executor, now: Date, leaseUntil: Date, limit: number): Promise<VtuRow[]> {
  return rows<VtuRow>(
    exec,
    sql`UPDATE vtu_transactions SET next_check_at = ${leaseUntil}, requery_count = requery_count + 1, last_checked_at = ${now}
        WHERE id IN (SELECT id FROM vtu_transactions WHERE status = 'processing' AND next_check_at <= ${now}
                     ORDER BY next_check_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING ${COLS}`,
  );
}

export async function listStuck(exec: Executor, olderThan: Date, limit: number, offset: number): Promise<VtuRow[]> {
  return rows<VtuRow>(
    exec,
    sql`SELECT ${COLS} FROM vtu_transactions WHERE status = 'processing' AND created_at < ${olderThan}
        ORDER BY created_at ASC, id ASC LIMIT ${limit + 1} OFFSET ${offset}`,
  );
}
