import { defineModule } from '../../platform/module.js';
import { createSubscriptionService, type SubscriptionService } from './service.js';
import { subscriptionOperations } from './operations.js';

/** The subscriptions module: what it needs, what it provides and what the composition root (services.ts) registers for it. */
export const subscriptionsModule = defineModule({
  name: 'subscriptions',
  needs: ['db', 'clock', 'work', 'walletLimits'],
  provides: ['subscriptions'],
  create: (deps) => ({ subscriptions: createSubscriptionService(deps) }),
  operations: subscriptionOperations,
});

declare module '../../platform/services.js' {
  interface Services {
    subscriptions: SubscriptionService;
  }
}
