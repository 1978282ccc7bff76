import type { Executor } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { toNaira } from '../../kernel/money.js';
import { epinProfitByDay } from '../epins/api.js';
import { profitByDay, type ProfitRow } from '../vtu/api.js';
import { DASHBOARD_MAX_DAYS } from './dashboard-purchases.js';
import { lagosRange } from './range.js';

/**
 * The profit view (issue 45): retail minus wholesale of successful purchases, by Lagos day, service and price level,
 * with totals by service, by level and overall. vtu publishes its purchases' sums (profitByDay) and epins its delivered
 * recharge cards' (epinProfitByDay, service `epin`); the console only adds them up.
 */

/** Both modules' profit rows of [start, end), by Lagos day and service (each module's level order kept). */
export async function profitRows(exec: Executor, start: Date, end: Date, only: { service?: string; level?: string } = {}) {
  const [vtu, epins] = await Promise.all([profitByDay(exec, start, end, only), epinProfitByDay(exec, start, end, only)]);
  return [...vtu, ...epins].sort((a, b) => a.day.localeCompare(b.day) || a.service.localeCompare(b.service));
}

interface Sums {
  count: number;
  retail: bigint;
  wholesale: bigint;
}

const money = (s: Sums) => ({
  count: s.count,
  retail: toNaira(s.retail),
  wholesale: toNaira(s.wholesale),
  profit: toNaira(s.retail - s.wholesale),
});

/** Sums of rows grouped by `keyOf`, largest profit first (then by key). */
function totalsBy<K extends string>(list: ProfitRow[], keyOf: (r: ProfitRow) => K) {
  const sums = new Map<K, Sums & { row: ProfitRow }>();
  for (const r of list) {
    const k = keyOf(r);
    const s = sums.get(k) ?? { count: 0, retail: 0n, wholesale: 0n, row: r };
    s.count += r.count;
    s.retail += r.retail;
    s.wholesale += r.wholesale;
    sums.set(k, s);
  }
  return [...sums.entries()]
    .sort(([ka, a], [kb, b]) => {
      const d = b.retail - b.wholesale - (a.retail - a.wholesale);
      return d > 0n ? 1 : d < 0n ? -1 : ka.localeCompare(kb);
    })
    .map(([, s]) => s);
}

/** The profit rows of a range, added up: by day, service and level; by service; by level; the total. */
export function profitSummary(list: ProfitRow[]) {
  const total = list.reduce<Sums>(
    (t, r) => ({ count: t.count + r.count, retail: t.retail + r.retail, wholesale: t.wholesale + r.wholesale }),
    {
      count: 0,
      retail: 0n,
      wholesale: 0n,
    },
  );
  return {
    total: money(total),
    byService: totalsBy(list, (r) => r.service).map((s) => ({ service: s.row.service, ...money(s) })),
    byLevel: totalsBy(list, (r) => r.level).map((s) => ({ level: s.row.level, levelName: s.row.levelName, ...money(s) })),
    items: list.map((r) => ({ day: r.day, service: r.service, level: r.level, levelName: r.levelName, ...money(r) })),
  };
}

export interface ProfitInput {
  from?: string;
  to?: string;
  service?: string;
  level?: string;
}

/** adminProfit: the profit of a range of Lagos days (default today), optionally of one service or level. */
export async function profit({ db, clock }: { db: Executor; clock: Clock }, input: ProfitInput) {
  const r = lagosRange(input, clock.now(), DASHBOARD_MAX_DAYS);
  const list = await profitRows(db, r.start, r.end, { service: input.service, level: input.level });
  return { from: r.from, to: r.to, ...profitSummary(list) };
}
