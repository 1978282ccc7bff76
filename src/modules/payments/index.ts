import { defineModule } from '../../platform/module.js';
import { createPaymentsService, type PaymentsService } from './service.js';
import { paymentsOperations } from './operations.js';
import { withdrawalOperations } from './withdrawal-operations.js';
import { registerPaymentsJobs } from './jobs.js';

/** The payments module: what it needs, what it provides and what the composition root (services.ts) registers for it. */
export const paymentsModule = defineModule({
  name: 'payments',
  needs: ['config', 'db', 'clock', 'jobs', 'events', 'work', 'walletLimits', 'processors', 'log'],
  provides: ['payments'],
  create: (deps) => ({ payments: createPaymentsService(deps) }),
  operations: [...paymentsOperations, ...withdrawalOperations],
  // Tier 2 approval opens a dedicated account.
  subscribers: [(services) => services.payments.subscribe()],
  jobs: [registerPaymentsJobs],
});

declare module '../../platform/services.js' {
  interface Services {
    /** Top-ups, webhook events, dedicated accounts, reconciliation. */
    payments: PaymentsService;
  }
}
