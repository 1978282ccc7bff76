import { defineModule } from '../../http/registry.js';
import { operatorOperations } from './operations.js';

/** The operators module: roles and the audit trail's search. Its operations build what they use from ctx.api. */
export const operatorsModule = defineModule({
  name: 'operators',
  operations: operatorOperations,
});
