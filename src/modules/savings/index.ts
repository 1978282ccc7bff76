import { defineModule } from '../../platform/module.js';
import { savingsOperations } from './operations.js';

/** The savings module: its operations (its service is built by the growth module, with whose settings it shares). */
export const savingsModule = defineModule({
  name: 'savings',
  operations: savingsOperations,
});
