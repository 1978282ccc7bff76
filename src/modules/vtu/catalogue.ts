import { sql } from 'drizzle-orm';
import { one, type Db } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { MINUTE, type Clock } from '../../kernel/clock.js';
import type { Logger } from '../../lib/logger.js';
import { ProviderError, type CatalogueEntry, type ProviderId } from '../../providers/vtu/types.js';

/**
 * Provider catalogues cached in the database for 30 minutes (spec rule 7), so every instance shares one copy
 * and the expiry follows the injected clock. Wholesale prices are cached; retail is computed when read, so a
 * markup change shows at once. When a refresh fails, the last copy is served rather than nothing. A list is named by
 * its kind (kinds/<kind>: 'data_plans', 'cable_plans'...) and fetched by the kind's adapter at the provider; the
 * cache key is provider:list:arg, so list names are unique across kinds.
 */
export const CATALOGUE_TTL_MS = 30 * MINUTE;

type Stored = Omit<CatalogueEntry, 'price' | 'minAmount' | 'maxAmount'> & { price: string | null; minAmount?: string; maxAmount?: string };

const store = (e: CatalogueEntry): Stored => ({
  ...e,
  price: e.price === null ? null : e.price.toString(),
  minAmount: e.minAmount?.toString(),
  maxAmount: e.maxAmount?.toString(),
});
const load = (s: Stored): CatalogueEntry => ({
  ...s,
  price: s.price === null ? null : BigInt(s.price),
  minAmount: s.minAmount ? BigInt(s.minAmount) : undefined,
  maxAmount: s.maxAmount ? BigInt(s.maxAmount) : undefined,
});

export function createCatalogue({
  db,
  readDb = db,
  clock,
  log,
}: {
  db: Db;
  /** Where the cached copy is read (the replica when there is one): the memo below already serves it up to its expiry. */
  readDb?: Db;
  clock: Clock;
  log: Logger;
}) {
  const inflight = new Map<string, Promise<CatalogueEntry[]>>();
  // The database row is the shared copy; each instance also keeps the parsed copy until the same expiry.
  const memo = new Map<string, { entries: CatalogueEntry[]; expiresAt: number }>();

  async function refresh(
    key: string,
    provider: ProviderId,
    kind: string,
    fetch: () => Promise<CatalogueEntry[]>,
    stale: Stored[] | null,
  ): Promise<CatalogueEntry[]> {
    let fresh: CatalogueEntry[];
    try {
      fresh = await fetch();
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      log.warn({ provider, kind, err: err.message }, 'catalogue refresh failed');
      if (stale) return stale.map(load);
      throw new AppError('UPSTREAM_ERROR', 'The provider catalogue is unavailable right now; try again shortly', { cause: err });
    }
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + CATALOGUE_TTL_MS);
    memo.set(key, { entries: fresh, expiresAt: expiresAt.getTime() });
    await db.execute(
      sql`INSERT INTO vtu_catalogue_cache (key, payload, fetched_at, expires_at)
          VALUES (${key}, ${JSON.stringify(fresh.map(store))}::jsonb, ${now}, ${expiresAt})
          ON CONFLICT (key) DO UPDATE SET payload = EXCLUDED.payload, fetched_at = EXCLUDED.fetched_at, expires_at = EXCLUDED.expires_at`,
    );
    return fresh;
  }

  return {
    /** The list `kind` at `provider` (with `arg`), from the cache or `fetch` (the kind's adapter) when expired. */
    async get(
      provider: ProviderId,
      kind: string,
      arg: string | undefined,
      fetch: () => Promise<CatalogueEntry[]>,
    ): Promise<CatalogueEntry[]> {
      const key = `${provider}:${kind}:${arg ?? ''}`;
      const now = clock.now().getTime();
      const m = memo.get(key);
      if (m && m.expiresAt > now) return m.entries;
      const row = await one<{ payload: Stored[]; expires_at: Date }>(
        readDb,
        sql`SELECT payload, expires_at FROM vtu_catalogue_cache WHERE key = ${key}`,
      );
      if (row && new Date(row.expires_at).getTime() > now) {
        const entries = row.payload.map(load);
        memo.set(key, { entries, expiresAt: new Date(row.expires_at).getTime() });
        return entries;
      }
      let p = inflight.get(key);
      if (!p) {
        p = refresh(key, provider, kind, fetch, row?.payload ?? null).finally(() => inflight.delete(key));
        inflight.set(key, p);
      }
      return p;
    },
  };
}

export type Catalogue = ReturnType<typeof createCatalogue>;
