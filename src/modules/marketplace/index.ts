import { defineModule } from '../../platform/module.js';
import { createMarketplaceService, type MarketplaceService } from './service.js';
import { registerAccountClosedScrub } from './account-closed.js';
import { marketplaceOperations } from './operations.js';

/** The marketplace module: what it needs, what it provides and what the composition root (services.ts) registers for it. */
export const marketplaceModule = defineModule({
  name: 'marketplace',
  needs: ['db', 'clock', 'work', 'walletLimits', 'events'],
  provides: ['marketplace'],
  create: (deps) => ({ marketplace: createMarketplaceService(deps) }),
  operations: marketplaceOperations,
  subscribers: [registerAccountClosedScrub],
});

declare module '../../platform/services.js' {
  interface Services {
    marketplace: MarketplaceService;
  }
}
