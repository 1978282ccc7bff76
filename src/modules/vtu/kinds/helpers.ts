import { AppError } from '../../../kernel/errors.js';
import { ProviderError, type CatalogueEntry, type VerifyResult, type VtuProvider } from '../../../providers/vtu/types.js';
import type { KindContext, QuoteRequest, VerifyInput } from './kind.js';

/** Small helpers the kinds share: a provider's catalogue lists by name, quote checks, unknown products, look-ups. */

/**
 * A kind adapter's `catalogue` from its lists by name; a list the kind does not read there is refused (the core
 * reads only lists the kind names, so this is a programming error surfacing as an upstream error).
 */
export function catalogueLists(p: VtuProvider, lists: Record<string, (arg?: string) => Promise<CatalogueEntry[]>>) {
  return async (list: string, arg?: string): Promise<CatalogueEntry[]> => {
    const read = lists[list];
    if (!read) throw new ProviderError(p.id, `provider ${p.id} has no ${list} catalogue`, 'refused');
    return read(arg);
  };
}

const naira0 = new Intl.NumberFormat('en-NG');

/** quotePurchase's check of a chosen amount: present and within the purchase's bounds (naira). */
export function amountIssues(v: QuoteRequest, [min, max]: readonly [number, number]) {
  if (v.amount === undefined) return [{ path: 'amount', message: 'Enter the amount' }];
  if (v.amount < min || v.amount > max)
    return [{ path: 'amount', message: `Amount must be between ₦${naira0.format(min)} and ₦${naira0.format(max)}` }];
  return [];
}

/** quotePurchase's check of required fields: an issue for each one missing. */
export function needIssues(v: QuoteRequest, needs: [keyof QuoteRequest, string][]) {
  return needs.filter(([field]) => v[field] === undefined).map(([path, message]) => ({ path, message }));
}

/** VALIDATION_FAILED naming the field: a plan or product that is not (or no longer) in the catalogue. */
export const unknownProduct = (path: string, message: string, issue = message) =>
  new AppError('VALIDATION_FAILED', message, { issues: [{ path, message: issue }] });

/** A verification look-up at the kind's first provider (SERVICE_UNAVAILABLE without routing, UPSTREAM_ERROR if down). */
export async function verifyAt(ctx: KindContext, input: VerifyInput): Promise<VerifyResult> {
  const provider = (await ctx.route())[0];
  return ctx.upstream(async () => {
    const adapter = ctx.adapter(provider);
    if (!adapter.verify) throw new ProviderError(provider, `provider ${provider} verifies no ${ctx.name} accounts`, 'refused');
    return adapter.verify(input);
  });
}
