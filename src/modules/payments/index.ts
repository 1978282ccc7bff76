import { defineModule } from '../../http/registry.js';
import { paymentsOperations } from './operations.js';
import { registerPaymentsWebhook } from '../../http/routes/payments-webhook.js';
import { registerPaymentsJobs } from './jobs.js';

/** The payments module: what the composition root (modules/index.ts) registers for it. */
export const paymentsModule = defineModule({
  name: 'payments',
  operations: paymentsOperations,
  // Tier 2 approval opens a dedicated account.
  subscribers: [(services) => services.payments.subscribe()],
  jobs: [registerPaymentsJobs],
  routes: [registerPaymentsWebhook],
});
