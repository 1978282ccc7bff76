import { NETWORKS } from '../../kernel/phone.js';
import type { ProviderId } from '../../providers/vtu/types.js';
import { KINDS, kindNamed } from './kinds/index.js';
import { NETWORK_KINDS, providersOf, type Routing, type RoutingRow, type RoutingSource } from './routing.js';

/** What the console's routing calls use: the routing and the providers' names (VTU_PROVIDER_<A-D>_NAME). */
export interface RoutingAdminDeps {
  routes: Routing;
  providerNames: Record<ProviderId, string>;
}

/** One order as the console shows it: where it applies, the providers by name, and where it comes from. */
export interface RouteView {
  /** null: the whole kind. */
  network: string | null;
  providers: { id: ProviderId; name: string }[];
  /** console: an operator's row (this one, or the kind's for a network without its own); else VTU_ROUTING or the default. */
  source: RoutingSource;
  /** True when this order is an operator's row of its own (it can be cleared). */
  own: boolean;
  setBy: string | null;
  setAt: string | null;
}

/** A kind's routing in the console: its providers (those with its adapter), and its order for the kind and each network. */
export function serviceRouting(deps: RoutingAdminDeps, service: string, rows: RoutingRow[]) {
  const k = kindNamed(service);
  const named = (ids: ProviderId[]) => ids.map((id) => ({ id, name: deps.providerNames[id] }));
  const rowOf = (network: string) => rows.find((r) => r.service === service && r.network === network);
  const whole = rowOf('');
  const config = deps.routes.fromConfiguration(service);
  const view = (network: string): RouteView => {
    const own = network ? rowOf(network) : whole;
    const r = own ?? (network ? whole : undefined);
    return {
      network: network || null,
      providers: named(r ? r.providers : config.providers),
      source: r ? 'console' : config.source,
      own: Boolean(own),
      setBy: r?.updatedBy ?? null,
      setAt: r ? r.updatedAt.toISOString() : null,
    };
  };
  const networks = NETWORK_KINDS.has(service) ? NETWORKS : [];
  return {
    service,
    label: k.label,
    providers: named(providersOf(k)),
    configured: { providers: named(config.providers), source: config.source },
    routes: [view(''), ...networks.map(view)],
  };
}

/** Every kind's routing (adminGetRouting), or one kind's. */
export async function routingOf(deps: RoutingAdminDeps, service?: string) {
  const rows = await deps.routes.rows();
  return (service ? [service] : KINDS.map((k) => k.name)).map((s) => serviceRouting(deps, s, rows));
}

/** The one order a change touches (for the audit's before and after): the letters, or null without a row. */
export async function ownRow(deps: RoutingAdminDeps, service: string, network: string): Promise<ProviderId[] | null> {
  return (await deps.routes.rows()).find((r) => r.service === service && r.network === network)?.providers ?? null;
}

/**
 * Every kind's providers that its routing names now (the floats' service lists): its console row for the whole kind,
 * else VTU_ROUTING or its default, with every network's row. Read at each call, not from the purchases' copy, so the
 * list follows another instance's change at once.
 */
export async function namedProviders(routes: Routing): Promise<Record<string, ProviderId[]>> {
  const rows = await routes.rows();
  return Object.fromEntries(
    KINDS.map((k) => {
      const own = rows.filter((r) => r.service === k.name);
      const whole = own.find((r) => r.network === '')?.providers ?? routes.fromConfiguration(k.name).providers;
      return [k.name, [...new Set([...whole, ...own.flatMap((r) => r.providers)])]];
    }),
  );
}
