import { defineModule } from '../../platform/module.js';
import type { EventBus } from '../../platform/change.js';
import { createBeneficiaryService, type BeneficiaryService } from './service.js';
import { beneficiaryOperations } from './operations.js';

/** account.closed: saved numbers are personal data with no money record to keep, so they go. */
function registerAccountClosedForget({ events, beneficiaries }: { events: EventBus; beneficiaries: BeneficiaryService }) {
  events.on('account.closed', ({ userId }, change) => beneficiaries.forgetOnClosure(change, userId));
}

/** The beneficiaries module: what it needs, what it provides and what the composition root (services.ts) registers for it. */
export const beneficiariesModule = defineModule({
  name: 'beneficiaries',
  needs: ['db', 'clock', 'events'],
  provides: ['beneficiaries'],
  create: (deps) => ({ beneficiaries: createBeneficiaryService(deps) }),
  operations: beneficiaryOperations,
  subscribers: [registerAccountClosedForget],
});

declare module '../../platform/services.js' {
  interface Services {
    /** Saved beneficiaries and "my number" per customer. */
    beneficiaries: BeneficiaryService;
  }
}
