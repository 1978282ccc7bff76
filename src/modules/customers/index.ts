import { defineModule } from '../../platform/module.js';
import { createCustomerService, type CustomerService } from './service.js';
import { customerOperations } from './operations.js';

/** The customers module (issue 30): operators' look-ups, freeze and sign-out everywhere. */
export const customersModule = defineModule({
  name: 'customers',
  needs: ['db', 'clock', 'work', 'identity'],
  provides: ['customers'],
  create: ({ identity, ...deps }) => ({ customers: createCustomerService({ ...deps, forgetUser: identity.forgetUser }) }),
  operations: customerOperations,
});

declare module '../../platform/services.js' {
  interface Services {
    /** Operators' customer look-ups, freeze and sign-out everywhere (issue 30). */
    customers: CustomerService;
  }
}
