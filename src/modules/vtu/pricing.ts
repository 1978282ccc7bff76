import type { Config } from '../../config.js';
import { AppError } from '../../kernel/errors.js';
import { formatNaira, toKobo } from '../../kernel/money.js';
import type { ProviderId, VtuProvider } from '../../providers/vtu/types.js';
import type { Catalogue } from './catalogue.js';
import { kindContext } from './kind-context.js';
import { KINDS, kindNamed } from './kinds/index.js';
import type { KindAdapter, KindContext, KindPlatform, QuoteRequest, ServiceKind } from './kinds/kind.js';
import { applyMarkup, type Markups } from './markups.js';
import { quotePurchase } from './quote.js';

export type Pricing = ReturnType<typeof createPricing>;

/**
 * Routing, prices and each kind's context (kinds/kind.ts KindContext): which providers sell a kind (VTU_ROUTING, else
 * the kind's default), retail = wholesale + markup, the cached catalogue and the kind's adapters at each provider.
 */
export function createPricing(deps: {
  cfg: Config['vtu'];
  catalogue: Catalogue;
  markups: Markups;
  providers: Record<ProviderId, VtuProvider>;
  /** What a kind with tables of its own is lent (KindContext.platform). */
  platform: KindPlatform;
}) {
  const { cfg, catalogue, markups, providers } = deps;

  /** Every kind's providers in order: the kind's default, unless VTU_ROUTING names the kind. */
  const routing: Record<string, ProviderId[]> = Object.fromEntries(
    KINDS.map((k) => [k.name, [...(cfg.routing[k.name] ?? k.defaultRouting)]]),
  );

  const route = (service: string): ProviderId[] => {
    const r = routing[service];
    if (!r?.length) throw new AppError('SERVICE_UNAVAILABLE', `No provider is configured for ${service}`);
    return r;
  };

  async function priced(service: string, provider: ProviderId, wholesale: bigint) {
    const markup = applyMarkup(await markups.ruleFor(service, provider), wholesale);
    return { wholesale, markup, retail: wholesale + markup };
  }

  function assertPrice(amountNaira: number, retail: bigint, what: string) {
    if (toKobo(amountNaira) !== retail) {
      throw new AppError('PRICE_CHANGED', `The price of ${what} is now ${formatNaira(retail)}; quote again and confirm the new price`);
    }
  }

  // Each kind's adapter at each provider, built once from that provider's adapter (its client).
  const adapters = new Map<string, KindAdapter | null>();
  function adapterOf(kind: ServiceKind, provider: ProviderId): KindAdapter | null {
    const key = `${kind.name}:${provider}`;
    if (!adapters.has(key)) adapters.set(key, kind.adapters[provider]?.(providers[provider]) ?? null);
    return adapters.get(key)!;
  }

  const contexts = new Map<string, KindContext>();
  const contextDeps = { route, priced, assertPrice, markups, catalogue, adapterOf, platform: deps.platform };
  function context(name: string): KindContext {
    const known = contexts.get(name);
    if (known) return known;
    const kind = kindNamed(name);
    const ctx = kindContext(contextDeps, kind, name);
    contexts.set(name, ctx);
    return ctx;
  }

  /** The kind's adapter at `provider`, or null when that provider does not sell the kind. */
  const adapterAt = (service: string, provider: ProviderId) => adapterOf(kindNamed(service), provider);

  return { routing, route, priced, context, adapterAt, quotePurchase: (i: QuoteRequest) => quotePurchase(context, i) };
}
