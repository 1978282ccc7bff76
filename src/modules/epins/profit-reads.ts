import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../db/client.js';
import { readPriceLevels, type ProfitRow } from '../vtu/api.js';

/** A Lagos calendar day (UTC+1 all year) of a timestamp, as SQL. */
const lagosDayOf = sql.raw(`((created_at AT TIME ZONE 'UTC') + interval '1 hour')::date::text`);

/**
 * The recharge cards' profit for the console (issue 45), shaped like vtu's profitByDay so the profit view and the
 * daily summary add them up together: batches bought in [start, end) with cards delivered (delivered or partial), by
 * Lagos day of the purchase and price level, as service `epin`. `count` is batches; retail and wholesale are the
 * delivered cards' (unit price and the seller's unit price at purchase, epin_batches): what was refunded counts nothing.
 */
export async function epinProfitByDay(
  exec: Executor,
  start: Date,
  end: Date,
  only: { service?: string; level?: string } = {},
): Promise<ProfitRow[]> {
  if (only.service !== undefined && only.service !== 'epin') return [];
  const [list, levels] = await Promise.all([
    rows<{ day: string; level: string; n: number; retail: string; wholesale: string }>(
      exec,
      sql`SELECT ${lagosDayOf} AS day, price_level AS level, count(*)::int AS n,
                 sum(unit_price * delivered)::text AS retail, sum(unit_wholesale * delivered)::text AS wholesale
          FROM epin_batches
          WHERE created_at >= ${start} AND created_at < ${end} AND status IN ('delivered', 'partial')
            AND (${only.level ?? null}::text IS NULL OR price_level = ${only.level ?? null})
          GROUP BY 1, 2`,
    ),
    readPriceLevels(exec),
  ]);
  const rank = new Map(levels.map((l) => [l.id, l]));
  return list
    .map((r) => ({
      day: r.day,
      service: 'epin',
      level: r.level,
      levelName: rank.get(r.level)?.name ?? r.level,
      count: r.n,
      retail: BigInt(r.retail),
      wholesale: BigInt(r.wholesale),
    }))
    .sort(
      (a, b) =>
        a.day.localeCompare(b.day) || (rank.get(a.level)?.rank ?? 1e9) - (rank.get(b.level)?.rank ?? 1e9) || a.level.localeCompare(b.level),
    );
}
