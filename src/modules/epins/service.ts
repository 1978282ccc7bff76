import type { Tx } from '../../db/client.js';
import type { AuthUser } from '../../kernel/actor.js';
import { toNaira } from '../../kernel/money.js';
import { cardsOf, getBatch, batchView, listBatches } from './batches.js';
import { buyBatch, type BuyEpins } from './buy-batch.js';
import type { EpinsDeps } from './deps.js';
import { downloadBatch } from './downloads.js';
import { markSold } from './mark-sold.js';
import { createEpinPricing } from './pricing.js';
import { applyEpinSetting, epinCatalogue, epinPreview, epinSettingTarget, type EpinPriceSetting } from './price-admin.js';
import { requeryBatch } from './requery.js';

/** The recharge cards' service (issue 45): each use case is its own file, handed the module's deps here. */
export function createEpinsService(base: EpinsDeps) {
  const deps = { ...base, pricing: createEpinPricing(base) };
  return {
    buy: (user: Pick<AuthUser, 'id' | 'kycTier'>, input: BuyEpins) => buyBatch(deps, user, input),
    list: (userId: string, p: { limit: number; offset: number }) => listBatches(deps, userId, p),
    /** The caller's batch with its cards (PINs decrypted); a batch still processing is asked about first. */
    async get(userId: string, id: string) {
      if ((await getBatch(deps, userId, id)).status === 'processing') await requeryBatch(deps, id);
      return { batch: batchView(await getBatch(deps, userId, id)), cards: await cardsOf(deps, id) };
    },
    download: (userId: string, id: string, format: 'pdf' | 'csv') => downloadBatch(deps, userId, id, format),
    markSold: (userId: string, i: { id: string; serials: string[]; sold: boolean }) => markSold(deps, userId, i),
    requery: (id: string) => requeryBatch(deps, id),
    /** What a batch will cost the buyer in naira (quantity x the level's card price): an API key's spend limit reserves it. */
    async cost(userId: string, i: Pick<BuyEpins, 'network' | 'denomination' | 'quantity'>) {
      return toNaira((await deps.pricing.price(userId, i.network, i.denomination)).unitPrice * BigInt(i.quantity));
    },
    /** The console's e-PIN prices (price-admin.ts): the catalogue, a change's preview, and approvals' `price_setting`. */
    adminCatalogue: () => epinCatalogue(deps),
    adminPreviewPrice: (s: EpinPriceSetting) => epinPreview(deps, s),
    adminPriceSettingTarget: (s: EpinPriceSetting) => epinSettingTarget(deps, s),
    adminApplyPriceSetting: (s: EpinPriceSetting, claim?: (tx: Tx) => Promise<void>) => applyEpinSetting(deps, s, claim),
  };
}

export type EpinsService = ReturnType<typeof createEpinsService>;
