import { defineModule } from '../../platform/module.js';
import { loanOperations } from './operations.js';

/** The loans module: its operations (its service is built by the growth module, with whose settings it shares). */
export const loansModule = defineModule({
  name: 'loans',
  operations: loanOperations,
});
