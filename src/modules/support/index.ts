import { defineModule } from '../../http/registry.js';
import { supportOperations } from './operations.js';

/** The support module: what the composition root (modules/index.ts) registers for it. */
export const supportModule = defineModule({
  name: 'support',
  operations: supportOperations,
});
