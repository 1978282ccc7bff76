import type { Config } from '../../config.js';
import { AppError } from '../../kernel/errors.js';
import { formatNaira, toKobo, toNaira } from '../../kernel/money.js';
import { ProviderError, type CatalogueEntry, type ProviderId, type VtuProvider } from '../../providers/vtu/types.js';
import type { Catalogue } from './catalogue.js';
import { KINDS, kindNamed } from './kinds/index.js';
import type { KindAdapter, KindContext, KindPlatform, QuoteRequest, ServiceKind } from './kinds/kind.js';
import { applyMarkup, type Markups } from './markups.js';
import { feeSplit } from './model.js';

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
  function context(name: string): KindContext {
    const known = contexts.get(name);
    if (known) return known;
    const kind = kindNamed(name);
    const ctx: KindContext = {
      name,
      route: () => route(name),
      priced: (provider, wholesale) => priced(name, provider, wholesale),
      async retailList(provider: ProviderId, entries: CatalogueEntry[]) {
        const rule = await markups.ruleFor(name, provider);
        return entries.map((e) => ({ e, retail: e.price === null ? null : e.price + applyMarkup(rule, e.price) }));
      },
      assertPrice,
      catalogue: (provider, list, arg) =>
        catalogue.get(provider, list, arg, () => {
          const a = adapterOf(kind, provider);
          if (!a?.catalogue) throw new ProviderError(provider, `provider ${provider} has no ${list} catalogue`, 'refused');
          return a.catalogue(list, arg);
        }),
      adapter<A extends KindAdapter>(provider: ProviderId): A {
        const a = adapterOf(kind, provider);
        if (!a) throw new AppError('SERVICE_UNAVAILABLE', `Provider ${provider.toUpperCase()} does not sell ${kind.label}`);
        return a as A;
      },
      async upstream<T>(fn: () => Promise<T>, what = 'verification'): Promise<T> {
        try {
          return await fn();
        } catch (err) {
          if (err instanceof ProviderError)
            throw new AppError('UPSTREAM_ERROR', `The provider could not be reached for ${what}; try again shortly`, { cause: err });
          throw err;
        }
      },
      platform: deps.platform,
    };
    contexts.set(name, ctx);
    return ctx;
  }

  /** The kind's adapter at `provider`, or null when that provider does not sell the kind. */
  const adapterAt = (service: string, provider: ProviderId) => adapterOf(kindNamed(service), provider);

  /**
   * quotePurchase (issue 29: the fee before paying): what the buyer gets, the fee and the total the wallet pays, by
   * the same routing and prices as the purchase. Electricity units are known only once the provider vends the token:
   * they come with the transaction.
   */
  async function quotePurchase(i: QuoteRequest) {
    const kind = kindNamed(i.service);
    const ctx = context(kind.name);
    ctx.route();
    if (!kind.quote) throw new AppError('VALIDATION_FAILED', `${kind.label} has no quote; see its catalogue`);
    const p = await kind.quote(ctx, i);
    const { value, fee } = feeSplit(kind.feeOnTop, p.retail, p.markup);
    return { service: i.service, name: p.name, amount: toNaira(value), fee: toNaira(fee), total: toNaira(p.retail) };
  }

  return { routing, route, priced, context, adapterAt, quotePurchase };
}
