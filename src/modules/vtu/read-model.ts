import { sql } from 'drizzle-orm';
import { one, rows, type Executor } from '../../db/client.js';
import { DEFAULT_LEVEL } from './levels.js';

/**
 * What other modules read of the purchases (vtu_transactions), as typed queries the VTU module owns: the table is read
 * raw only inside vtu/ (docs/architecture.md, "Who owns each table"), so its columns and indexes can change here
 * alone. Functions rather than SQL views: a view would still be SQL text in the reader's query.
 */

export type PurchaseStatus = 'processing' | 'success' | 'failed';

/** A purchase as the receipts print it. */
export interface PurchaseReceipt {
  id: string;
  reference: string;
  service: string;
  status: PurchaseStatus;
  amount: bigint;
  recipient: string;
  network: string | null;
  planId: string | null;
  product: string | null;
  failureReason: string | null;
  /** The service kind's own receipt lines, kept with the delivery (details.receiptLines). */
  lines: { label: string; value: string; mask?: boolean }[];
}

/** One of the user's purchases, by id or by reference (null when it is not theirs). */
export async function receiptOf(exec: Executor, userId: string, by: { id?: string; reference?: string }): Promise<PurchaseReceipt | null> {
  const r = await one<{
    id: string;
    reference: string;
    service: string;
    status: PurchaseStatus;
    amount: string;
    recipient: string;
    network: string | null;
    plan_id: string | null;
    product: string | null;
    failure_reason: string | null;
    lines: unknown;
    level: string | null;
    level_id: string;
  }>(
    exec,
    sql`SELECT t.id::text AS id, reference, service, status, amount::text AS amount, recipient, network, plan_id, product, failure_reason,
          details->'receiptLines' AS lines, l.name AS level, t.price_level AS level_id
        FROM vtu_transactions t LEFT JOIN vtu_price_levels l ON l.id = t.price_level WHERE user_id = ${userId}
          AND (${by.id ?? null}::uuid IS NULL OR t.id = ${by.id ?? null}::uuid)
          AND (${by.reference ?? null}::text IS NULL OR reference = ${by.reference ?? null})`,
  );
  if (!r) return null;
  return {
    id: r.id,
    reference: r.reference,
    service: r.service,
    status: r.status,
    amount: BigInt(r.amount),
    recipient: r.recipient,
    network: r.network,
    planId: r.plan_id,
    product: r.product,
    failureReason: r.failure_reason,
    lines: [
      ...(Array.isArray(r.lines)
        ? r.lines
            .filter((l) => l && typeof l.label === 'string' && typeof l.value === 'string')
            .map((l) => ({ label: l.label as string, value: l.value as string, ...(l.mask === true ? { mask: true } : {}) }))
        : []),
      // Issue 45: a purchase sold at a level other than the default one says so (its price is that level's).
      ...(r.level && r.level_id !== DEFAULT_LEVEL ? [{ label: 'Price level', value: r.level }] : []),
    ],
  };
}

/** The status and failure reason of purchases by id (one statement; ids not found are absent). */
export async function outcomesOf(
  exec: Executor,
  ids: readonly string[],
): Promise<Map<string, { status: PurchaseStatus; failureReason: string | null }>> {
  if (!ids.length) return new Map();
  const list = await rows<{ id: string; status: PurchaseStatus; failure_reason: string | null }>(
    exec,
    sql`SELECT id::text AS id, status, failure_reason FROM vtu_transactions WHERE id = ANY(${`{${ids.join(',')}}`}::uuid[])`,
  );
  return new Map(list.map((r) => [r.id, { status: r.status, failureReason: r.failure_reason }]));
}

/** The operator dashboard's purchase statements, by name: test/console/dashboard.test.ts reads their plans. */
export const dashboardStatements = {
  volume: (start: Date, end: Date) =>
    sql`SELECT service, provider, status, channel, GROUPING(service, provider, status, channel)::int AS g, count(*)::int AS n,
               coalesce(sum(amount), 0)::text AS volume
        FROM vtu_transactions WHERE created_at >= ${start} AND created_at < ${end}
        GROUP BY GROUPING SETS ((service), (provider), (status), (channel), ())`,
  // Latency: creation to the final status (the provider's answer, or the requery that settled it).
  providers: (start: Date, end: Date) =>
    sql`SELECT provider,
               (count(*) FILTER (WHERE status = 'success'))::int AS succeeded,
               (count(*) FILTER (WHERE status = 'failed'))::int AS failed,
               (count(*) FILTER (WHERE status = 'processing'))::int AS processing,
               (percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM updated_at - created_at)) FILTER (WHERE status <> 'processing'))::float8 AS p50,
               (percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM updated_at - created_at)) FILTER (WHERE status <> 'processing'))::float8 AS p95
        FROM vtu_transactions WHERE created_at >= ${start} AND created_at < ${end}
        GROUP BY provider ORDER BY provider`,
  // What each provider's float paid for (wholesale of delivered purchases) over the window.
  burn: (start: Date, end: Date) =>
    sql`SELECT provider, coalesce(sum(wholesale), 0)::text AS burn FROM vtu_transactions
        WHERE created_at >= ${start} AND created_at < ${end} AND status = 'success' GROUP BY provider`,
};

/** Purchases by service, provider, status and channel over [start, end): GROUPING's bits say which set a row is of. */
export function purchaseVolume(exec: Executor, start: Date, end: Date) {
  return rows<{
    service: string | null;
    provider: string | null;
    status: string | null;
    channel: string | null;
    g: number;
    n: number;
    volume: string;
  }>(exec, dashboardStatements.volume(start, end));
}

/** Each provider's outcomes and latency (seconds) over [start, end). */
export function providerOutcomes(exec: Executor, start: Date, end: Date) {
  return rows<{ provider: string; succeeded: number; failed: number; processing: number; p50: number | null; p95: number | null }>(
    exec,
    dashboardStatements.providers(start, end),
  );
}

/** The wholesale each provider delivered over [start, end), in kobo (text). */
export function providerBurn(exec: Executor, start: Date, end: Date) {
  return rows<{ provider: string; burn: string }>(exec, dashboardStatements.burn(start, end));
}

/** Purchases still processing that were made before `before`: how many, and the oldest's creation. */
export function stuckPurchases(exec: Executor, before: Date) {
  return one<{ n: number; oldest: string | null }>(
    exec,
    sql`SELECT count(*)::int AS n, min(created_at) AS oldest FROM vtu_transactions WHERE status = 'processing' AND created_at < ${before}`,
  );
}

/** Purchases created after `since`, by service, provider and status (/metrics). */
export function purchaseCounts(exec: Executor, since: Date) {
  return rows<{ service: string; provider: string; status: string; n: number }>(
    exec,
    sql`SELECT service, provider, status, count(*)::int AS n FROM vtu_transactions WHERE created_at > ${since} GROUP BY 1, 2, 3`,
  );
}

/** Purchases still processing, and how many of them were made before `stuckBefore` (/metrics). */
export async function processingPurchases(exec: Executor, stuckBefore: Date): Promise<{ processing: number; stuck: number }> {
  const r = await one<{ processing: number; stuck: number }>(
    exec,
    sql`SELECT count(*)::int AS processing, (count(*) FILTER (WHERE created_at < ${stuckBefore}))::int AS stuck FROM vtu_transactions WHERE status = 'processing'`,
  );
  return r ?? { processing: 0, stuck: 0 };
}
