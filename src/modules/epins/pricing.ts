import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { toKobo } from '../../kernel/money.js';
import { EpinProviderError } from '../../providers/epins.js';
import type { EpinsDeps } from './deps.js';

/** The seller's prices are kept this long per instance (they change rarely; a purchase never pays below them). */
const PRICES_MS = 10 * 60_000;

/** A card's price at a level: the face value less the level's discount (rounded up to the kobo), never below wholesale. */
export function cardPrice(face: bigint, discountBps: number, wholesale: bigint): bigint {
  const off = (face * BigInt(discountBps)) / 10_000n;
  const price = face - off;
  return price < wholesale ? wholesale : price;
}

export interface Priced {
  level: { id: string; name: string };
  unitPrice: bigint;
  unitWholesale: bigint;
}

export function createEpinPricing(deps: Pick<EpinsDeps, 'db' | 'clock' | 'levels' | 'provider'>) {
  let prices: { at: number; map: Map<string, bigint> } | null = null;
  /** The seller's price of each card (kobo) by `${network}:${denomination}`, kept PRICES_MS. */
  async function wholesale(): Promise<Map<string, bigint>> {
    if (!deps.provider) throw new AppError('SERVICE_UNAVAILABLE', 'Recharge cards are not on sale at the moment');
    const now = deps.clock.now().getTime();
    if (!prices || now - prices.at >= PRICES_MS || now < prices.at) {
      try {
        prices = { at: now, map: await deps.provider.prices() };
      } catch (err) {
        if (err instanceof EpinProviderError)
          throw new AppError('UPSTREAM_ERROR', 'The recharge card seller is not answering; try again shortly');
        throw err;
      }
    }
    return prices.map;
  }
  async function wholesaleOf(network: string, denomination: number): Promise<bigint> {
    const w = (await wholesale()).get(`${network}:${denomination}`);
    if (w === undefined) throw new AppError('SERVICE_UNAVAILABLE', `₦${denomination} ${network} cards are not on sale at the moment`);
    return w;
  }

  /**
   * The buyer's price of one card (issue 45, docs/decisions.md): the buyer's price level must have an e-PIN price
   * (epin_level_prices, set in the console through four-eyes: price-admin.ts); Customer, as seeded, has none and is
   * refused (403 FORBIDDEN) before any money moves.
   */
  async function price(userId: string, network: string, denomination: number): Promise<Priced> {
    const levelId = await deps.levels.levelOf(userId);
    const rule = await one<{ discount: number }>(deps.db, sql`SELECT discount FROM epin_level_prices WHERE level = ${levelId}`);
    const level = (await deps.levels.list()).find((l) => l.id === levelId);
    if (!rule || !level)
      throw new AppError('FORBIDDEN', 'Recharge cards are sold to Agents, Resellers and API partners; move up a price level to buy them');
    const unitWholesale = await wholesaleOf(network, denomination);
    return {
      level: { id: level.id, name: level.name },
      unitPrice: cardPrice(toKobo(denomination), Number(rule.discount), unitWholesale),
      unitWholesale,
    };
  }

  return { price, wholesale };
}

export type EpinPricing = ReturnType<typeof createEpinPricing>;
