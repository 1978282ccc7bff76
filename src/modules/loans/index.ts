import { defineModule } from '../../http/registry.js';
import { loanOperations } from './operations.js';

/** The loans module: what the composition root (modules/index.ts) registers for it. */
export const loansModule = defineModule({
  name: 'loans',
  operations: loanOperations,
});
