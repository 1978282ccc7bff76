import { sql, type SQL } from 'drizzle-orm';
import { one, rows, type Executor } from '../../../../db/client.js';
import type { Change } from '../../../../platform/change.js';
import type { Narrowed, RowOf } from '../../../../db/rows.js';
import type { airtimeCashRequests } from './schema.js';

/** Queries of airtime-to-cash. The table is written only here. */
export type AirtimeCashStatus = 'awaiting' | 'credited' | 'expired' | 'failed';
export type AirtimeCashRow = Narrowed<RowOf<typeof airtimeCashRequests>, { status: AirtimeCashStatus }>;

const COLS = sql.raw(`id::text AS id, reference, request_id, user_id::text AS user_id, provider, network, sender, amount::text AS amount,
  rate_bp, receiving_number, ussd, provider_reference, status, amount_received::text AS amount_received, credited::text AS credited,
  failure_reason, expires_at, next_check_at, requery_count, last_provider_status, last_checked_at, settled_at, created_at, updated_at`);

export interface NewRequest {
  id: string;
  reference: string;
  requestId: string;
  userId: string;
  provider: string;
  network: string;
  sender: string;
  amount: bigint;
  rateBp: number;
  receivingNumber: string;
  ussd: string;
  providerReference: string | null;
  status: 'awaiting' | 'failed';
  failureReason: string | null;
  expiresAt: Date;
  nextCheckAt: Date | null;
  now: Date;
}

/** Lagos midnight of `now`'s Lagos day (UTC+1, no daylight saving). */
export const lagosDayStart = (now: Date) => {
  const lagos = new Date(now.getTime() + 3_600_000);
  return new Date(Date.UTC(lagos.getUTCFullYear(), lagos.getUTCMonth(), lagos.getUTCDate()) - 3_600_000);
};

/** What counts against a cap today: a request still awaiting its airtime counts its amount, a credited one what it received. */
const USED = sql.raw(
  `COALESCE(SUM(CASE status WHEN 'awaiting' THEN amount WHEN 'credited' THEN LEAST(COALESCE(amount_received, amount), amount) ELSE 0 END), 0)::text`,
);

export async function usedToday(exec: Executor, userId: string, sender: string, now: Date): Promise<{ customer: bigint; number: bigint }> {
  const since = lagosDayStart(now);
  const r = (await one<{ customer: string; number: string }>(
    exec,
    sql`SELECT (SELECT ${USED} FROM airtime_cash_requests WHERE user_id = ${userId} AND created_at >= ${since}) AS customer,
               (SELECT ${USED} FROM airtime_cash_requests WHERE sender = ${sender} AND created_at >= ${since}) AS number`,
  ))!;
  return { customer: BigInt(r.customer), number: BigInt(r.number) };
}

/** Serialises requests of one customer and of one sending number until the transaction ends (the caps' check). */
export async function lockCaps(exec: Executor, userId: string, sender: string) {
  // In a fixed order, so two requests never wait on each other's second lock.
  const keys = [`airtime_cash:user:${userId}`, `airtime_cash:number:${sender}`].sort();
  await exec.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${keys[0]})), pg_advisory_xact_lock(hashtext(${keys[1]}))`);
}

export async function insertRequest(exec: Executor, r: NewRequest): Promise<AirtimeCashRow> {
  return (await one<AirtimeCashRow>(
    exec,
    sql`INSERT INTO airtime_cash_requests (id, reference, request_id, user_id, provider, network, sender, amount, rate_bp, receiving_number, ussd,
          provider_reference, status, failure_reason, expires_at, next_check_at, settled_at, created_at, updated_at)
        VALUES (${r.id}, ${r.reference}, ${r.requestId}, ${r.userId}, ${r.provider}, ${r.network}, ${r.sender}, ${r.amount}, ${r.rateBp},
          ${r.receivingNumber}, ${r.ussd}, ${r.providerReference}, ${r.status}, ${r.failureReason}, ${r.expiresAt}, ${r.nextCheckAt},
          ${r.status === 'failed' ? r.now : null}, ${r.now}, ${r.now})
        RETURNING ${COLS}`,
  ))!;
}

export const getRequest = (exec: Executor, id: string) =>
  one<AirtimeCashRow>(exec, sql`SELECT ${COLS} FROM airtime_cash_requests WHERE id = ${id}`);

export const getByRequestId = (exec: Executor, requestId: string) =>
  one<AirtimeCashRow>(exec, sql`SELECT ${COLS} FROM airtime_cash_requests WHERE request_id = ${requestId}`);

export const getOwnRequest = (exec: Executor, userId: string, id: string) =>
  one<AirtimeCashRow>(exec, sql`SELECT ${COLS} FROM airtime_cash_requests WHERE id = ${id} AND user_id = ${userId}`);

export async function listRequests(
  exec: Executor,
  f: { userId?: string; status?: AirtimeCashStatus; stuckBefore?: Date; limit: number; offset: number },
): Promise<AirtimeCashRow[]> {
  const conds: SQL[] = [sql`true`];
  if (f.userId) conds.push(sql`user_id = ${f.userId}`);
  if (f.status) conds.push(sql`status = ${f.status}`);
  if (f.stuckBefore) conds.push(sql`status = 'awaiting' AND expires_at < ${f.stuckBefore}`);
  return rows<AirtimeCashRow>(
    exec,
    sql`SELECT ${COLS} FROM airtime_cash_requests WHERE ${sql.join(conds, sql` AND `)}
        ORDER BY created_at DESC, id DESC LIMIT ${f.limit + 1} OFFSET ${f.offset}`,
  );
}

/**
 * The request credited, with the credit's change: exactly when the money moves (the posting's unique reference makes
 * a second confirmation post nothing, and so change nothing here either).
 */
export function markCredited(
  change: Change,
  id: string,
  c: { amountReceived: bigint; credited: bigint; providerReference: string | null; providerStatus: string; now: Date },
): Change {
  return change.write(
    (each) =>
      sql`UPDATE airtime_cash_requests SET status = 'credited', amount_received = ${c.amountReceived}::bigint,
            credited = ${c.credited}::bigint, provider_reference = COALESCE(${c.providerReference}::text, provider_reference),
            failure_reason = NULL, next_check_at = NULL, last_provider_status = ${c.providerStatus}::text, settled_at = ${c.now}::timestamptz,
            updated_at = ${c.now}::timestamptz
          FROM ${each} WHERE airtime_cash_requests.id = ${id}::uuid`,
  );
}

/** Closes an awaiting request with nothing credited; the row when this call closed it. */
export const closeAwaiting = (exec: Executor, id: string, to: 'expired' | 'failed', reason: string, providerStatus: string, now: Date) =>
  one<AirtimeCashRow>(
    exec,
    sql`UPDATE airtime_cash_requests SET status = ${to}, failure_reason = ${reason}, next_check_at = NULL, last_provider_status = ${providerStatus},
          settled_at = ${now}, updated_at = ${now}
        WHERE id = ${id} AND status = 'awaiting' RETURNING ${COLS}`,
  );

/** Records a requery's answer that decided nothing, with the next check. */
export const markChecked = (exec: Executor, id: string, providerStatus: string, nextCheckAt: Date, now: Date) =>
  exec.execute(
    sql`UPDATE airtime_cash_requests SET requery_count = requery_count + 1, last_provider_status = ${providerStatus}, last_checked_at = ${now},
          next_check_at = ${nextCheckAt}, updated_at = ${now}
        WHERE id = ${id} AND status = 'awaiting'`,
  );

/** Claims due awaiting requests (moves their next check to `lease`, so another instance skips them meanwhile). */
export const claimDue = (exec: Executor, now: Date, lease: Date, max: number) =>
  rows<AirtimeCashRow>(
    exec,
    sql`UPDATE airtime_cash_requests SET next_check_at = ${lease}
        WHERE id IN (SELECT id FROM airtime_cash_requests WHERE status = 'awaiting' AND next_check_at <= ${now}
                     ORDER BY next_check_at LIMIT ${max} FOR UPDATE SKIP LOCKED)
        RETURNING ${COLS}`,
  );

export async function isVerifiedSender(exec: Executor, userId: string, phone: string): Promise<boolean> {
  const r = await one(
    exec,
    sql`SELECT 1 AS x WHERE EXISTS (SELECT 1 FROM users WHERE id = ${userId} AND phone = ${phone} AND phone_verified_at IS NOT NULL)
           OR EXISTS (SELECT 1 FROM airtime_cash_numbers WHERE user_id = ${userId} AND phone = ${phone})`,
  );
  return Boolean(r);
}

export const addNumber = (exec: Executor, userId: string, phone: string, now: Date) =>
  exec.execute(
    sql`INSERT INTO airtime_cash_numbers (user_id, phone, verified_at) VALUES (${userId}, ${phone}, ${now})
        ON CONFLICT (user_id, phone) DO UPDATE SET verified_at = EXCLUDED.verified_at`,
  );

/** account.closed: the numbers a customer proved are personal data with no money record, so they go with the closure. */
export function forgetNumbersOnClosure(change: Change, userId: string): void {
  change.write((each) => sql`DELETE FROM airtime_cash_numbers WHERE user_id = ${userId}::uuid AND EXISTS (SELECT 1 FROM ${each})`);
}

/** The caller's sending numbers: the profile's verified phone first, then the numbers verified by code. */
export async function listNumbers(exec: Executor, userId: string): Promise<{ phone: string; source: 'profile' | 'code' }[]> {
  return rows<{ phone: string; source: 'profile' | 'code' }>(
    exec,
    sql`SELECT phone, 'profile' AS source FROM users WHERE id = ${userId} AND phone IS NOT NULL AND phone_verified_at IS NOT NULL
        UNION ALL
        SELECT n.phone, 'code' AS source FROM airtime_cash_numbers n WHERE n.user_id = ${userId}
          AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = n.user_id AND u.phone = n.phone AND u.phone_verified_at IS NOT NULL)`,
  );
}
