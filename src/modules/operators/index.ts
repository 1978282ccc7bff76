import { defineModule } from '../../platform/module.js';
import { operatorOperations } from './operations.js';
import { createOperators, type OperatorsService } from './service.js';

/** The operators module: roles, the admins' announcements of authority changes, and the audit trail's search. */
export const operatorsModule = defineModule({
  name: 'operators',
  needs: ['db', 'clock', 'config', 'outbox'],
  provides: ['operators'],
  create: ({ db, clock, config, outbox }) => ({ operators: createOperators({ db, clock, adminEmails: config.adminEmails, outbox }) }),
  operations: operatorOperations,
});

declare module '../../platform/services.js' {
  interface Services {
    /** Operators' roles, and the admins' announcements of authority changes (issue 41). */
    operators: OperatorsService;
  }
}
