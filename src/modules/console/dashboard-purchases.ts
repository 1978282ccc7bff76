import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { toNaira } from '../../kernel/money.js';
import { providerOutcomes, purchaseVolume } from '../vtu/api.js';
import { lagosRange } from './range.js';

/** The dashboard's ranges cover at most this many Lagos days (a quarter). */
export const DASHBOARD_MAX_DAYS = 92;

type Group = { key: string; count: number; volume: number };

/** The dashboard's purchase volume over a Lagos range: the total and by service, provider, status and channel. */
export async function volume({ db, clock }: { db: Db; clock: Clock }, input: { from?: string; to?: string }) {
  const r = lagosRange(input, clock.now(), DASHBOARD_MAX_DAYS);
  const list = await purchaseVolume(db, r.start, r.end);
  // GROUPING(service, provider, status, channel): a bit per column left out of the set (8 service, 4 provider,
  // 2 status, 1 channel).
  const of = (g: number, pick: (x: (typeof list)[number]) => string | null): Group[] =>
    list
      .filter((x) => x.g === g)
      .map((x) => ({ key: pick(x) ?? '', count: x.n, volume: toNaira(x.volume) }))
      .sort((a, b) => b.volume - a.volume || a.key.localeCompare(b.key));
  const all = list.find((x) => x.g === 15);
  return {
    from: r.from,
    to: r.to,
    total: { count: all?.n ?? 0, volume: toNaira(all?.volume ?? '0') },
    byService: of(7, (x) => x.service).map(({ key, ...g }) => ({ service: key, ...g })),
    byProvider: of(11, (x) => x.provider).map(({ key, ...g }) => ({ provider: key, ...g })),
    byStatus: of(13, (x) => x.status).map(({ key, ...g }) => ({ status: key, ...g })),
    byChannel: of(14, (x) => x.channel).map(({ key, ...g }) => ({ channel: key, ...g })),
  };
}

/** Each provider's outcomes over a Lagos range: success rate and latency. */
export async function providers({ db, clock }: { db: Db; clock: Clock }, input: { from?: string; to?: string }) {
  const r = lagosRange(input, clock.now(), DASHBOARD_MAX_DAYS);
  const list = await providerOutcomes(db, r.start, r.end);
  const round = (n: number | null) => (n === null ? null : Math.round(n * 1000) / 1000);
  return {
    from: r.from,
    to: r.to,
    items: list.map((p) => ({
      provider: p.provider,
      succeeded: p.succeeded,
      failed: p.failed,
      processing: p.processing,
      successRate: p.succeeded + p.failed ? Math.round((p.succeeded / (p.succeeded + p.failed)) * 10000) / 10000 : null,
      latencySeconds: { p50: round(p.p50), p95: round(p.p95) },
    })),
  };
}
