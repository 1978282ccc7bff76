import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { one, type Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { nairaStr, toKoboNum, type PlaceOrder, type PlaceResult, type SimMagic, type SimOrder } from '../../modules/vtu/kinds/simulator.js';

export type { PlaceResult, SimOrder };

/**
 * The order engine shared by the three simulated protocols (docs/design.md §8). State lives in the database
 * (sandbox_vtu_floats, sandbox_vtu_orders), so it works across instances and survives a restart. The outcome is
 * chosen by the last four digits of the recipient; README "VTU sandbox" lists them.
 */
export const PENDING_RESOLVE_MS = 5000;

export type Magic = SimMagic;

export function magicOf(recipient: string): Magic {
  const last4 = recipient.replace(/\D/g, '').slice(-4);
  switch (last4) {
    case '1111':
      return 'fail';
    case '2222':
      return 'pending_ok';
    case '3333':
      return 'pending_fail';
    // Issue 30: accepted as pending and never settled; every query answers 503, which adapters read as "unknown".
    case '4040':
      return 'never';
    case '4444':
      return 'timeout';
    case '5555':
      return 'refuse_a';
    case '5000':
      return 'http500';
    case '6666':
      return 'malformed';
    // Social services only (order-query.ts): part of the order is delivered, the rest given back.
    case '6464':
      return 'partial';
    // Social services: in progress, then part of it delivered (other services: pending, then delivered).
    case '6262':
      return 'pending_partial';
    case '7777':
      return 'slow';
    case '8888':
      return 'late';
    default:
      return 'none';
  }
}

/** "4040": the provider never settles the order and cannot say what became of it (every query is a 503). */
export const neverSettles = (o: { recipient: string }) => magicOf(o.recipient) === 'never';

/** Verification look-ups fail for accounts ending 9999. */
export const verifyNotFound = (account: string) => account.replace(/\D/g, '').endsWith('9999');

/**
 * "8888": the request is held before the provider records anything (a request still on the wire), past the
 * adapter's timeout; when the hold ends the order is placed and delivered like any other.
 */
export async function arriveLate(recipient: string, holdMs: number) {
  if (magicOf(recipient) === 'late') await sleep(holdMs);
}

const digits = (seed: string, n: number) => {
  let out = '';
  let h = createHash('sha256').update(seed).digest();
  while (out.length < n) {
    for (const b of h) out += (b % 10).toString();
    h = createHash('sha256').update(h).digest();
  }
  return out.slice(0, n);
};

/** What a delivery hands over: tokens for prepaid meters, pins for exams, a name for betting. */
export function deliveryResult(o: {
  requestId: string;
  service: string;
  amount: bigint;
  meterType?: string;
  quantity?: number;
  recipient: string;
}): Record<string, any> {
  switch (o.service) {
    case 'electricity':
      if (o.meterType === 'postpaid') return {};
      return {
        token: digits(`tok:${o.requestId}`, 20).replace(/(\d{4})(?=\d)/g, '$1-'),
        units: `${(Number(o.amount) / 100 / 68.5).toFixed(1)} kWh`,
      };
    case 'exam':
      return {
        pins: Array.from({ length: o.quantity ?? 1 }, (_, i) => ({
          pin: digits(`pin:${o.requestId}:${i}`, 12),
          serial: `WRN${digits(`ser:${o.requestId}:${i}`, 9)}`,
        })),
      };
    case 'betting':
      return { customer_name: `Sandbox Punter ${o.recipient.slice(-4)}` };
    default:
      return {};
  }
}

export async function ensureFloatRows(db: Db, providers: string[]) {
  for (const p of providers)
    await db.execute(sql`INSERT INTO sandbox_vtu_floats (provider, balance) VALUES (${p}, 0) ON CONFLICT (provider) DO NOTHING`);
}

export async function placeOrder(db: Db, clock: Clock, o: PlaceOrder): Promise<PlaceResult> {
  const magic = magicOf(o.recipient);
  if (magic === 'http500') return { kind: 'http500' };
  const now = clock.now();
  const failNow = magic === 'fail' || (magic === 'refuse_a' && o.provider === 'a');
  const pending = magic === 'pending_ok' || magic === 'pending_fail' || magic === 'never' || magic === 'pending_partial';
  const status = failNow ? 'failed' : pending ? 'pending' : 'delivered';
  const message =
    magic === 'fail'
      ? 'Transaction failed at the network'
      : magic === 'refuse_a' && o.provider === 'a'
        ? 'This number is not supported on this route'
        : null;
  const result = { ...deliveryResult({ ...o, requestId: o.requestId }), ...(o.result ?? {}) };
  const charge = o.charge ?? o.amount;
  const debit = status !== 'failed';
  // One autocommit statement (the simulator shares the bench machine with the service, and its float row
  // was locked across four round trips): an order that exists is a duplicate; otherwise the order is written only
  // when the float (locked) covers it, and the float is debited only for the row actually inserted. A refused
  // request leaves no trace, so the same request id may come again.
  const r = (await one<SimOrder & { float_ok: boolean; existed: boolean }>(
    db,
    sql`WITH ex AS (SELECT 1 FROM sandbox_vtu_orders WHERE provider = ${o.provider} AND request_id = ${o.requestId}),
        fl AS (SELECT balance FROM sandbox_vtu_floats WHERE provider = ${o.provider} AND ${debit}::boolean AND NOT EXISTS (SELECT 1 FROM ex) FOR UPDATE),
        ok AS (SELECT NOT EXISTS (SELECT 1 FROM ex) AND (NOT ${debit}::boolean OR COALESCE((SELECT balance FROM fl) >= ${charge}::bigint, false)) AS ok),
        ins AS (
          INSERT INTO sandbox_vtu_orders (provider, request_id, service, recipient, product, amount, status, final_status, resolve_at, result, message, created_at, delivered_at)
          SELECT ${o.provider}, ${o.requestId}, ${o.service}, ${o.recipient}, ${o.product ?? null}, ${o.amount}::bigint, ${status},
                 ${pending && magic !== 'never' ? (magic === 'pending_ok' || magic === 'pending_partial' ? 'delivered' : 'failed') : null},
                 ${pending && magic !== 'never' ? new Date(now.getTime() + PENDING_RESOLVE_MS) : null}::timestamptz,
                 ${JSON.stringify(result)}::jsonb, ${message}, ${now}::timestamptz, ${status === 'delivered' ? now : null}::timestamptz
          FROM ok WHERE ok.ok
          ON CONFLICT (provider, request_id) DO NOTHING
          RETURNING provider, request_id, service, recipient, product, amount::text AS amount, status, result, message, created_at),
        deb AS (UPDATE sandbox_vtu_floats f SET balance = f.balance - ${charge}::bigint FROM ins WHERE f.provider = ${o.provider} AND ${debit}::boolean RETURNING 1)
        SELECT (SELECT ok FROM ok) AS float_ok, EXISTS (SELECT 1 FROM ex) AS existed, ins.* FROM (SELECT 1) one LEFT JOIN ins ON true`,
  ))!;
  if (r.request_id) {
    const { float_ok: _ok, existed: _existed, ...order } = r;
    return { kind: 'placed', order, magic };
  }
  if (!r.existed && !r.float_ok) return { kind: 'low_float' };
  // It existed, or a request with the same id was inserted concurrently (the insert conflicted): a duplicate.
  const existing = await one<SimOrder>(
    db,
    sql`SELECT provider, request_id, service, recipient, product, amount::text AS amount, status, result, message, created_at
        FROM sandbox_vtu_orders WHERE provider = ${o.provider} AND request_id = ${o.requestId}`,
  );
  return { kind: 'duplicate', order: existing! };
}

/** Reads an order; a pending one whose time has come settles now (failed ones give the float back). */
export async function queryOrder(db: Db, clock: Clock, provider: string, requestId: string): Promise<SimOrder | null> {
  // Usually one plain read: only a pending order whose time has come takes the locking transaction below.
  const seen = await one<SimOrder & { resolve_at: Date | null }>(
    db,
    sql`SELECT provider, request_id, service, recipient, product, amount::text AS amount, status, resolve_at, result, message, created_at
        FROM sandbox_vtu_orders WHERE provider = ${provider} AND request_id = ${requestId}`,
  );
  if (!seen) return null;
  if (!(seen.status === 'pending' && seen.resolve_at && new Date(seen.resolve_at).getTime() <= clock.now().getTime())) {
    const { resolve_at: _resolveAt, ...order } = seen;
    return order;
  }
  return db.transaction(async (tx) => {
    const row = await one<SimOrder & { final_status: string | null; resolve_at: Date | null }>(
      tx,
      sql`SELECT provider, request_id, service, recipient, product, amount::text AS amount, status, final_status, resolve_at, result, message, created_at
          FROM sandbox_vtu_orders WHERE provider = ${provider} AND request_id = ${requestId} FOR UPDATE`,
    );
    if (!row) return null;
    const now = clock.now();
    if (row.status === 'pending' && row.resolve_at && new Date(row.resolve_at).getTime() <= now.getTime()) {
      const final = row.final_status === 'delivered' ? 'delivered' : 'failed';
      await tx.execute(
        sql`UPDATE sandbox_vtu_orders SET status = ${final}, delivered_at = ${final === 'delivered' ? now : null},
            message = ${final === 'failed' ? 'Transaction failed at the network' : null}
            WHERE provider = ${provider} AND request_id = ${requestId}`,
      );
      if (final === 'failed')
        await tx.execute(sql`UPDATE sandbox_vtu_floats SET balance = balance + ${BigInt(row.amount)} WHERE provider = ${provider}`);
      row.status = final;
      row.message = final === 'failed' ? 'Transaction failed at the network' : null;
    }
    return row;
  });
}

export async function floatBalance(db: Db, provider: string): Promise<bigint> {
  const r = await one<{ b: string }>(db, sql`SELECT balance::text AS b FROM sandbox_vtu_floats WHERE provider = ${provider}`);
  return BigInt(r?.b ?? '0');
}

/** Funding is keyed by reference, so a retried funding call credits once. */
export async function fundFloat(db: Db, clock: Clock, provider: string, amount: bigint, reference: string): Promise<bigint> {
  return db.transaction(async (tx) => {
    const fresh = await one(
      tx,
      sql`INSERT INTO sandbox_vtu_fundings (provider, reference, amount, created_at) VALUES (${provider}, ${reference}, ${amount}, ${clock.now()})
          ON CONFLICT DO NOTHING RETURNING 1`,
    );
    if (fresh) {
      await tx.execute(sql`INSERT INTO sandbox_vtu_floats (provider, balance) VALUES (${provider}, ${amount})
                           ON CONFLICT (provider) DO UPDATE SET balance = sandbox_vtu_floats.balance + ${amount}`);
    }
    const r = await one<{ b: string }>(tx, sql`SELECT balance::text AS b FROM sandbox_vtu_floats WHERE provider = ${provider}`);
    return BigInt(r?.b ?? '0');
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export { nairaStr, toKoboNum };
