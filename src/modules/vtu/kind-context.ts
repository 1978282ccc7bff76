import { AppError } from '../../kernel/errors.js';
import { ProviderError, type CatalogueEntry, type ProviderId } from '../../providers/vtu/types.js';
import type { Catalogue } from './catalogue.js';
import type { KindAdapter, KindContext, KindPlatform, ServiceKind } from './kinds/kind.js';
import { applyMarkup, type Markups } from './markups.js';

/** What a kind's context is built from (pricing.ts): its routing and prices, the catalogue and the kinds' adapters. */
export interface KindContextDeps {
  route: (service: string) => ProviderId[];
  priced: (service: string, provider: ProviderId, wholesale: bigint) => Promise<{ wholesale: bigint; markup: bigint; retail: bigint }>;
  assertPrice: KindContext['assertPrice'];
  markups: Markups;
  catalogue: Catalogue;
  adapterOf: (kind: ServiceKind, provider: ProviderId) => KindAdapter | null;
  /** What a kind with tables of its own is lent (KindContext.platform). */
  platform: KindPlatform;
}

/** The context (kinds/kind.ts KindContext) of the kind `name`: its routing, prices, cached catalogue and adapters. */
export function kindContext(deps: KindContextDeps, kind: ServiceKind, name: string): KindContext {
  const { route, priced, assertPrice, markups, catalogue, adapterOf } = deps;
  return {
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
}
