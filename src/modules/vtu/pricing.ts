import type { Config } from '../../config.js';
import { AppError } from '../../kernel/errors.js';
import { formatNaira, toKobo } from '../../kernel/money.js';
import type { ProviderId, VtuProvider } from '../../providers/vtu/types.js';
import type { Catalogue } from './catalogue.js';
import { kindContext } from './kind-context.js';
import { kindNamed } from './kinds/index.js';
import type { KindAdapter, KindContext, KindPlatform, QuoteRequest, ServiceKind } from './kinds/kind.js';
import { DEFAULT_LEVEL, ruleRetail, type Levels } from './levels.js';
import { applyMarkup, type Markups } from './markups.js';
import { quotePurchase } from './quote.js';
import type { Routing } from './routing.js';

export type Pricing = ReturnType<typeof createPricing>;

/**
 * Routing, prices and each kind's context (kinds/kind.ts KindContext): which providers sell a kind (routing.ts: the
 * console's order for the network, then for the kind, then VTU_ROUTING, then the kind's default), retail = wholesale +
 * markup, the cached catalogue and the kind's adapters at each provider.
 */
export function createPricing(deps: {
  cfg: Config['vtu'];
  catalogue: Catalogue;
  markups: Markups;
  levels: Levels;
  routes: Routing;
  providers: Record<ProviderId, VtuProvider>;
  /** What a kind with tables of its own is lent (KindContext.platform). */
  platform: KindPlatform;
}) {
  const { catalogue, markups, levels, routes, providers } = deps;

  /** A kind's providers in order for a purchase on `network` (routing.ts; no round trip while the copy is kept). */
  const route = (service: string, network?: string): Promise<ProviderId[]> => routes.route(service, network);

  /**
   * Retail at a price level (issue 45): the level's rule for the plan or the service when there is one, else the
   * service's markup at the provider. A plan an operator switched off is refused before any debit.
   */
  async function priced(service: string, provider: ProviderId, wholesale: bigint, level = DEFAULT_LEVEL, plan?: string) {
    if (plan !== undefined && (await levels.isOff(service, plan)))
      throw new AppError('VALIDATION_FAILED', 'This plan is not on sale at the moment; choose another', {
        issues: [{ path: 'plan_id', message: 'this plan is switched off' }],
      });
    const rule = await levels.ruleFor(service, level, plan);
    const retail = rule ? ruleRetail(rule, wholesale) : wholesale + applyMarkup(await markups.ruleFor(service, provider), wholesale);
    return { wholesale, markup: retail - wholesale, retail };
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
  const contextDeps = { route, priced, assertPrice, markups, levels, catalogue, adapterOf, platform: deps.platform };
  /** The kind's context at a price level (the default level unless named). */
  function context(name: string, level = DEFAULT_LEVEL): KindContext {
    const key = `${name}:${level}`;
    const known = contexts.get(key);
    if (known) return known;
    const kind = kindNamed(name);
    const ctx = kindContext(contextDeps, kind, name, level);
    contexts.set(key, ctx);
    return ctx;
  }
  /** The kind's context at the customer's level. */
  const contextFor = async (name: string, userId: string) => context(name, await levels.levelOf(userId));

  /** The kind's adapter at `provider`, or null when that provider does not sell the kind. */
  const adapterAt = (service: string, provider: ProviderId) => adapterOf(kindNamed(service), provider);

  return {
    route,
    routes,
    priced,
    context,
    contextFor,
    levels,
    adapterAt,
    quotePurchase: async (i: QuoteRequest, userId?: string) =>
      quotePurchase(context, i, userId ? await levels.levelOf(userId) : DEFAULT_LEVEL, levels),
  };
}
