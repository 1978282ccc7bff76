import { defineModule } from '../../http/registry.js';
import { savingsOperations } from './operations.js';

/** The savings module: what the composition root (modules/index.ts) registers for it. */
export const savingsModule = defineModule({
  name: 'savings',
  operations: savingsOperations,
});
