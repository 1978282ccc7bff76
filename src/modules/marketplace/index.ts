import { defineModule } from '../../http/registry.js';
import { registerAccountClosedScrub } from './account-closed.js';
import { marketplaceOperations } from './operations.js';

/** The marketplace module: what the composition root (modules/index.ts) registers for it. */
export const marketplaceModule = defineModule({
  name: 'marketplace',
  operations: marketplaceOperations,
  subscribers: [registerAccountClosedScrub],
});
