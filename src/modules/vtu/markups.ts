import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';

/**
 * Retail = wholesale + markup (spec rule 6). A markup is set per service and optionally per provider (a
 * provider-specific row wins over the service row); flat markups are kobo, percent markups are basis points and
 * round up to the next kobo, so we never sell below cost.
 */
export interface Markup {
  service: string;
  provider: string | null;
  kind: 'flat' | 'percent';
  /** kobo (flat) or basis points (percent). */
  value: bigint;
  updatedAt: Date;
}

export function applyMarkup(m: Pick<Markup, 'kind' | 'value'> | undefined, wholesale: bigint): bigint {
  if (!m) return 0n;
  if (m.kind === 'flat') return m.value;
  return (wholesale * m.value + 9999n) / 10000n;
}

/** Markups read on every purchase are kept this long per instance; a change made here clears it at once. */
export const MARKUP_CACHE_MS = 10_000;

export function createMarkups({ db, clock }: { db: Db; clock: Clock }) {
  const cache = new Map<string, { at: number; rows: { provider: string; kind: 'flat' | 'percent'; value: string }[] }>();
  async function list(): Promise<Markup[]> {
    const r = await rows<{ service: string; provider: string; kind: 'flat' | 'percent'; value: string; updated_at: Date }>(
      db,
      sql`SELECT service, provider, kind, value::text AS value, updated_at FROM vtu_markups ORDER BY service, provider`,
    );
    return r.map((x) => ({
      service: x.service,
      provider: x.provider || null,
      kind: x.kind,
      value: BigInt(x.value),
      updatedAt: new Date(x.updated_at),
    }));
  }
  return {
    list,
    /** The rule for a service at a provider (provider row first, then the service row); compute with applyMarkup. */
    async ruleFor(service: string, provider: string): Promise<Pick<Markup, 'kind' | 'value'> | undefined> {
      const now = clock.now().getTime();
      let hit = cache.get(service);
      if (!hit || now - hit.at >= MARKUP_CACHE_MS || now < hit.at) {
        hit = {
          at: now,
          rows: await rows<{ provider: string; kind: 'flat' | 'percent'; value: string }>(
            db,
            sql`SELECT provider, kind, value::text AS value FROM vtu_markups WHERE service = ${service}`,
          ),
        };
        cache.set(service, hit);
      }
      const r = hit.rows;
      const m = r.find((x) => x.provider === provider) ?? r.find((x) => x.provider === '');
      return m ? { kind: m.kind, value: BigInt(m.value) } : undefined;
    },
    async set(input: {
      service: string;
      provider: string | null;
      kind: 'flat' | 'percent';
      value: bigint;
      actorId: string;
    }): Promise<Markup> {
      const now = clock.now();
      cache.clear();
      await db.transaction(async (tx) => {
        await tx.execute(
          sql`INSERT INTO vtu_markups (service, provider, kind, value, updated_by, updated_at)
              VALUES (${input.service}, ${input.provider ?? ''}, ${input.kind}, ${input.value}, ${input.actorId}, ${now})
              ON CONFLICT (service, provider) DO UPDATE SET kind = EXCLUDED.kind, value = EXCLUDED.value, updated_by = EXCLUDED.updated_by,
                updated_at = EXCLUDED.updated_at`,
        );
      });
      return { service: input.service, provider: input.provider, kind: input.kind, value: input.value, updatedAt: now };
    },
  };
}

export type Markups = ReturnType<typeof createMarkups>;
