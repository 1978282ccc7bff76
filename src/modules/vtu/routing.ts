import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';
import { NETWORKS } from '../../kernel/phone.js';
import type { ProviderId } from '../../providers/vtu/types.js';
import { findKind, KINDS } from './kinds/index.js';
import type { ServiceKind } from './kinds/kind.js';

/**
 * Provider routing (issue 45): which providers sell a kind, in order. An operator's row in vtu_routing (migration 1300)
 * for the kind on the purchase's network wins, then their row for the whole kind, then VTU_ROUTING, then the kind's
 * default. A row names only providers with the kind's adapter, each once.
 *
 * Purchases read the rows from a copy each instance keeps, invalidated the way the buyers' price levels are
 * (customer-levels.ts): any write to vtu_routing announces `routing` on channel `vtu_levels_changed` at commit
 * (migration 1300's trigger), every instance drops its copy, and the next purchase reads the table again, once. While
 * the LISTEN connection is down nothing is kept; a generation counter keeps a read that raced a change from being kept.
 */
export const ROUTING_PAYLOAD = 'routing';

/** Where a kind's (or a network's) order comes from. */
export type RoutingSource = 'console' | 'configuration' | 'default';

export interface RoutingRow {
  service: string;
  /** '' for the whole kind. */
  network: string;
  providers: ProviderId[];
  updatedBy: string | null;
  updatedAt: Date;
}

type Overrides = Map<string, ProviderId[]>;
const keyOf = (service: string, network = '') => `${service}:${network}`;

/** The kinds sold per network (their purchase names one): their rows may name a network. */
export const NETWORK_KINDS: ReadonlySet<string> = new Set(
  KINDS.filter((k) => 'shape' in k.purchase.input && 'network' in (k.purchase.input as { shape: object }).shape).map((k) => k.name),
);

/** The providers with the kind's adapter, in the letters' order. */
export const providersOf = (k: ServiceKind): ProviderId[] => (['a', 'b', 'c', 'd'] as const).filter((p) => k.adapters[p]);

/** Why an operator's routing cannot be set (a 400's message and issue path), or null. */
export function routingProblem(i: { service: string; network?: string; providers: string[] }): { path: string; message: string } | null {
  const k = findKind(i.service);
  if (!k) return { path: 'service', message: `service must be one of ${KINDS.map((x) => x.name).join(', ')}` };
  if (i.network) {
    if (!NETWORK_KINDS.has(k.name)) return { path: 'network', message: `${k.label} is not sold per network; leave network out` };
    if (!(NETWORKS as string[]).includes(i.network)) return { path: 'network', message: `network must be one of ${NETWORKS.join(', ')}` };
  }
  if (!i.providers.length) return { path: 'providers', message: 'name at least one provider' };
  const twice = i.providers.find((p, n) => i.providers.indexOf(p) !== n);
  if (twice) return { path: 'providers', message: `provider ${twice.toUpperCase()} is named twice` };
  const own = providersOf(k);
  const without = i.providers.filter((p) => !(own as string[]).includes(p));
  if (without.length)
    return {
      path: 'providers',
      message: `provider ${without.map((p) => p.toUpperCase()).join(', ')} has no ${k.label} adapter (only ${own.map((p) => p.toUpperCase()).join(', ')})`,
    };
  return null;
}

async function readOverrides(db: Db): Promise<Overrides> {
  const r = await rows<{ service: string; network: string; providers: ProviderId[] }>(
    db,
    sql`SELECT service, network, providers FROM vtu_routing`,
  );
  return new Map(r.map((x) => [keyOf(x.service, x.network), x.providers]));
}

async function readRows(db: Db): Promise<RoutingRow[]> {
  const r = await rows<{ service: string; network: string; providers: ProviderId[]; updated_by: string | null; updated_at: Date }>(
    db,
    sql`SELECT service, network, providers, updated_by, updated_at FROM vtu_routing ORDER BY service, network`,
  );
  return r.map((x) => ({
    service: x.service,
    network: x.network,
    providers: x.providers,
    updatedBy: x.updated_by,
    updatedAt: new Date(x.updated_at),
  }));
}

export function createRouting({ db, clock, configured }: { db: Db; clock: Clock; configured: Record<string, readonly string[]> }) {
  let copy: Overrides | undefined;
  let generation = 0;
  let live: () => boolean = () => false;
  const forget = () => {
    generation++;
    copy = undefined;
  };

  /** VTU_ROUTING's order for the kind, else its default (what applies without a console row). */
  const fromConfiguration = (service: string): { providers: ProviderId[]; source: 'configuration' | 'default' } => {
    const named = configured[service];
    if (named) return { providers: [...named] as ProviderId[], source: 'configuration' };
    return { providers: [...(findKind(service)?.defaultRouting ?? [])], source: 'default' };
  };

  /** The operators' rows: the copy when there is one, else read (and kept while the feed is live). */
  async function overrides(): Promise<Overrides> {
    if (live() && copy) return copy;
    const readAt = generation;
    const read = await readOverrides(db);
    if (live() && readAt === generation) copy = read;
    return read;
  }

  /** The order in force for the kind on `network` (or the whole kind), and where it comes from. */
  function effective(o: Overrides, service: string, network?: string): { providers: ProviderId[]; source: RoutingSource; network: string } {
    const own = network ? o.get(keyOf(service, network)) : undefined;
    if (own) return { providers: own, source: 'console', network: network! };
    const whole = o.get(keyOf(service));
    if (whole) return { providers: whole, source: 'console', network: '' };
    return { ...fromConfiguration(service), network: '' };
  }

  return {
    fromConfiguration,
    /** Connects the copy to its invalidation feed (Database.subscribe's live()). */
    attach(isLive: () => boolean) {
      live = isLive;
    },
    /** Drops the copy (a `routing` message, the feed's reset, this instance's own write). */
    forget,
    /** The kind's providers in order for a purchase on `network`; SERVICE_UNAVAILABLE when none. */
    async route(service: string, network?: string): Promise<ProviderId[]> {
      const r = effective(await overrides(), service, network).providers;
      if (!r.length) throw new AppError('SERVICE_UNAVAILABLE', `No provider is configured for ${service}`);
      return r;
    },
    /** The order in force and its source, read now (the console's view). */
    async effectiveNow(service: string, network?: string) {
      return effective(await readOverrides(db), service, network);
    },
    /** The operators' rows, read now. */
    rows: () => readRows(db),
    /** Sets an operator's order for the kind (network '' for the whole kind); checked by routingProblem first. */
    async set(actorId: string, i: { service: string; network: string; providers: ProviderId[] }) {
      const problem = routingProblem(i);
      if (problem) throw new AppError('VALIDATION_FAILED', problem.message, { issues: [problem] });
      await db.execute(
        sql`INSERT INTO vtu_routing (service, network, providers, updated_by, updated_at)
            VALUES (${i.service}, ${i.network}, string_to_array(${i.providers.join(',')}, ','), ${actorId}, ${clock.now()})
            ON CONFLICT (service, network) DO UPDATE SET providers = EXCLUDED.providers, updated_by = EXCLUDED.updated_by,
              updated_at = EXCLUDED.updated_at`,
      );
      forget();
    },
    /** Removes an operator's order (the next one down applies); false when there was none. */
    async clear(i: { service: string; network: string }): Promise<boolean> {
      const r = await rows<{ service: string }>(
        db,
        sql`DELETE FROM vtu_routing WHERE service = ${i.service} AND network = ${i.network} RETURNING service`,
      );
      forget();
      return r.length > 0;
    },
  };
}

export type Routing = ReturnType<typeof createRouting>;
