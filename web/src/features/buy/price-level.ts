/**
 * Issue 45: the price level a purchase is priced at, named on its review. Every customer buys at the default level
 * until upgraded (src/modules/vtu/levels.ts DEFAULT_LEVEL); its reviews name no level, as its receipts do not.
 */
export const DEFAULT_LEVEL = 'customer';

/** A level as a quote names it (quotePurchase's `level`) or as getMyPriceLevel does. */
export interface PricedAt {
  id: string;
  name: string;
}

/** The review's "Price level" line, for a level other than the default one. */
export function levelLines(level: PricedAt | null | undefined, t: (key: 'buy.priceLevel') => string): [string, string][] {
  return level && level.id !== DEFAULT_LEVEL ? [[t('buy.priceLevel'), level.name]] : [];
}
