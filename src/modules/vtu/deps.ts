import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import type { Logger } from '../../lib/logger.js';
import type { Work } from '../../platform/change.js';
import type { ProviderId, VtuProvider } from '../../providers/vtu/types.js';
import type { WalletLimits } from '../wallet/api.js';
import type { ProviderFloat } from './float.js';
import type { Pricing } from './pricing.js';
import type { VtuSettlement } from './settlement.js';

/** What a request to a provider uses (provider-requests.ts): the kinds' routing, contexts and adapters, the providers' clients. */
export interface VtuProviderDeps {
  pricing: Pricing;
  providers: Record<ProviderId, VtuProvider>;
}

/** What the purchase path's use cases (purchase.ts, reconcile.ts) use. */
export interface VtuPurchaseDeps extends VtuProviderDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  work: Work;
  cfg: Config['vtu'];
  walletLimits: WalletLimits;
  ensureFloat: ProviderFloat['ensureFloat'];
  settlement: VtuSettlement;
}
