import { defineModule } from '../../http/registry.js';
import { identityOperations } from './operations.js';

/** The identity module: what the composition root (modules/index.ts) registers for it. */
export const identityModule = defineModule({
  name: 'identity',
  operations: identityOperations,
});
