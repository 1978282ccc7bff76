import { defineModule } from '../../http/registry.js';
import { subscriptionOperations } from './operations.js';

/** The subscriptions module: what the composition root (modules/index.ts) registers for it. */
export const subscriptionsModule = defineModule({
  name: 'subscriptions',
  operations: subscriptionOperations,
});
