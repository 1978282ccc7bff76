import { AppError } from '../../kernel/errors.js';
import { toKobo, toNaira } from '../../kernel/money.js';
import type { ProviderId } from '../../providers/vtu/types.js';
import { kindNamed } from './kinds/index.js';
import type { KindContext, QuoteRequest } from './kinds/kind.js';
import type { Levels } from './levels.js';
import { feeSplit } from './model.js';

/** The retail price of a wholesale amount at a provider (the kind's first routed provider unless named), in naira. */
export async function quote(
  {
    route,
    priced,
  }: {
    route: (service: string) => Promise<ProviderId[]>;
    priced: (service: string, provider: ProviderId, wholesale: bigint) => Promise<{ wholesale: bigint; markup: bigint; retail: bigint }>;
  },
  input: { service: string; provider?: ProviderId; wholesale: number },
) {
  const provider = input.provider ?? (await route(input.service))[0];
  const p = await priced(input.service, provider, toKobo(input.wholesale));
  return { service: input.service, provider, wholesale: toNaira(p.wholesale), markup: toNaira(p.markup), retail: toNaira(p.retail) };
}

/**
 * quotePurchase (issue 29: the fee before paying): what the buyer gets, the fee and the total the wallet pays, by
 * the same routing and prices as the purchase. Electricity units are known only once the provider vends the token:
 * they come with the transaction. Priced at the buyer's level (issue 45), which the quote names.
 */
export async function quotePurchase(
  context: (name: string, level: string) => KindContext,
  i: QuoteRequest,
  level: string,
  levels: Pick<Levels, 'named'>,
) {
  const kind = kindNamed(i.service);
  const ctx = context(kind.name, level);
  await ctx.route(i.network);
  if (!kind.quote) throw new AppError('VALIDATION_FAILED', `${kind.label} has no quote; see its catalogue`);
  const p = await kind.quote(ctx, i);
  const { value, fee } = feeSplit(kind.feeOnTop, p.retail, p.markup);
  const { name: levelName } = await levels.named(level);
  return {
    service: i.service,
    name: p.name,
    amount: toNaira(value),
    fee: toNaira(fee),
    total: toNaira(p.retail),
    level: { id: level, name: levelName },
  };
}
