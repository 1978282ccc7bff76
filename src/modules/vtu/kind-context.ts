import { AppError } from '../../kernel/errors.js';
import { ProviderError, type CatalogueEntry, type ProviderId } from '../../providers/vtu/types.js';
import type { Catalogue } from './catalogue.js';
import type { KindAdapter, KindContext, KindPlatform, ServiceKind } from './kinds/kind.js';
import { planKey, ruleOf, ruleRetail, type Levels } from './levels.js';
import { applyMarkup, type Markups } from './markups.js';

/** What a kind's context is built from (pricing.ts): its routing and prices, the catalogue and the kinds' adapters. */
export interface KindContextDeps {
  route: (service: string, network?: string) => Promise<ProviderId[]>;
  priced: (
    service: string,
    provider: ProviderId,
    wholesale: bigint,
    level: string,
    plan?: string,
  ) => Promise<{ wholesale: bigint; markup: bigint; retail: bigint }>;
  assertPrice: KindContext['assertPrice'];
  markups: Markups;
  levels: Levels;
  catalogue: Catalogue;
  adapterOf: (kind: ServiceKind, provider: ProviderId) => KindAdapter | null;
  /** What a kind with tables of its own is lent (KindContext.platform). */
  platform: KindPlatform;
}

/**
 * The context (kinds/kind.ts KindContext) of the kind `name` at a price level: its routing, prices at that level,
 * cached catalogue and adapters.
 */
export function kindContext(deps: KindContextDeps, kind: ServiceKind, name: string, level: string): KindContext {
  const { route, priced, assertPrice, markups, levels, catalogue, adapterOf } = deps;
  return {
    name,
    level,
    route: (network) => route(name, network),
    priced: (provider, wholesale, plan) => priced(name, provider, wholesale, level, plan === undefined ? undefined : planKey(plan)),
    // The level's price of each plan; plans an operator switched off are not listed.
    async retailList(provider: ProviderId, entries: CatalogueEntry[]) {
      const rule = await markups.ruleFor(name, provider);
      const [rules, off] = await Promise.all([levels.rulesOf(name), levels.offPlans(name)]);
      return entries
        .filter((e) => !off.has(planKey(e)))
        .map((e) => {
          if (e.price === null) return { e, retail: null };
          const own = ruleOf(rules, level, planKey(e));
          return { e, retail: own ? ruleRetail(own, e.price) : e.price + applyMarkup(rule, e.price) };
        });
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
