import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../db/client.js';
import { DEFAULT_LEVEL } from './levels.js';

/**
 * Issue 45's reads of the purchases for the console and the developer page, published by vtu (vtu_transactions is read
 * raw only inside vtu/): profit (retail minus wholesale of successful purchases) by Lagos day, service and price
 * level; and purchases made with API keys by key and Lagos day.
 */

/** A Lagos calendar day (UTC+1 all year) of a timestamp, as SQL. */
const lagosDayOf = sql.raw(`((created_at AT TIME ZONE 'UTC') + interval '1 hour')::date::text`);

export interface ProfitRow {
  day: string;
  service: string;
  level: string;
  /** The level's name now (the id when the level is gone). */
  levelName: string;
  count: number;
  /** Kobo: what customers paid (retail). */
  retail: bigint;
  /** Kobo: what the providers were paid. */
  wholesale: bigint;
}

/** Successful purchases created in [start, end), by Lagos day, service and level; optionally one service or level. */
export async function profitByDay(
  exec: Executor,
  start: Date,
  end: Date,
  only: { service?: string; level?: string } = {},
): Promise<ProfitRow[]> {
  const list = await rows<{
    day: string;
    service: string;
    level: string;
    level_name: string | null;
    n: number;
    retail: string;
    wholesale: string;
  }>(
    exec,
    sql`SELECT p.day, p.service, p.level, l.name AS level_name, p.n, p.retail, p.wholesale
        FROM (SELECT ${lagosDayOf} AS day, service, price_level AS level, count(*)::int AS n,
                     sum(amount)::text AS retail, sum(wholesale)::text AS wholesale
              FROM vtu_transactions
              WHERE created_at >= ${start} AND created_at < ${end} AND status = 'success'
                AND (${only.service ?? null}::text IS NULL OR service = ${only.service ?? null})
                AND (${only.level ?? null}::text IS NULL OR price_level = ${only.level ?? null})
              GROUP BY 1, 2, 3) p
        LEFT JOIN vtu_price_levels l ON l.id = p.level
        ORDER BY p.day, p.service, l.rank NULLS LAST, p.level`,
  );
  return list.map((r) => ({
    day: r.day,
    service: r.service,
    level: r.level,
    levelName: r.level_name ?? r.level,
    count: r.n,
    retail: BigInt(r.retail),
    wholesale: BigInt(r.wholesale),
  }));
}

export interface KeyUsageRow {
  key: string;
  day: string;
  /** Purchases made with the key that day, whatever their outcome. */
  purchases: number;
  succeeded: number;
  /** Kobo: what the successful ones cost the wallet. */
  spend: bigint;
}

/** Purchases made with API keys in [start, end) by key and Lagos day: the keys of one customer, or the keys named. */
export async function usageByKey(
  exec: Executor,
  start: Date,
  end: Date,
  of: { userId: string } | { keys: readonly string[] },
): Promise<KeyUsageRow[]> {
  const userId = 'userId' in of ? of.userId : null;
  const keys = 'keys' in of ? `{${of.keys.join(',')}}` : null;
  if (keys === '{}') return [];
  const list = await rows<{ key: string; day: string; n: number; ok: number; spend: string }>(
    exec,
    sql`SELECT api_key AS key, ${lagosDayOf} AS day, count(*)::int AS n, (count(*) FILTER (WHERE status = 'success'))::int AS ok,
               coalesce(sum(amount) FILTER (WHERE status = 'success'), 0)::text AS spend
        FROM vtu_transactions
        WHERE api_key IS NOT NULL AND created_at >= ${start} AND created_at < ${end}
          AND (${userId}::uuid IS NULL OR user_id = ${userId}::uuid)
          AND (${keys}::text[] IS NULL OR api_key = ANY(${keys}::text[]))
        GROUP BY 1, 2 ORDER BY 2 DESC, 1`,
  );
  return list.map((r) => ({ key: r.key, day: r.day, purchases: r.n, succeeded: r.ok, spend: BigInt(r.spend) }));
}

/**
 * The console's resellers: the customers at a level above the default one and the customers `also` names (those who
 * hold an API key, at any level), each with their level (source `default` without a row), highest level first, then
 * newest, a page at a time.
 */
export async function customersAboveBase(exec: Executor, limit: number, offset: number, also: string[] = []) {
  return rows<{ user_id: string; level: string; level_name: string; rank: number; source: string; since: string | null; total: number }>(
    exec,
    sql`WITH who AS (
          SELECT c.user_id FROM vtu_customer_levels c JOIN vtu_price_levels l ON l.id = c.level WHERE l.rank > 0
          UNION SELECT unnest(${`{${also.join(',')}}`}::uuid[]))
        SELECT w.user_id::text AS user_id, l.id AS level, l.name AS level_name, l.rank, coalesce(c.source, 'default') AS source,
               c.updated_at::text AS since, (count(*) OVER ())::int AS total
        FROM who w LEFT JOIN vtu_customer_levels c ON c.user_id = w.user_id
        JOIN vtu_price_levels l ON l.id = coalesce(c.level, ${DEFAULT_LEVEL})
        ORDER BY l.rank DESC, c.updated_at DESC NULLS LAST, w.user_id LIMIT ${limit} OFFSET ${offset}`,
  );
}
