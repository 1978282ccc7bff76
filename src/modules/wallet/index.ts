import { defineModule } from '../../http/registry.js';
import { walletOperations } from './operations.js';

/** The wallet module: what the composition root (modules/index.ts) registers for it. */
export const walletModule = defineModule({
  name: 'wallet',
  operations: walletOperations,
});
