import { defineModule } from '../../platform/module.js';
import { operatorOperations } from './operations.js';
import { createOperators, type OperatorsService } from './service.js';

/** The operators module: roles and invitations, the admins' announcements of authority changes, and the audit trail's search. */
export const operatorsModule = defineModule({
  name: 'operators',
  needs: ['db', 'clock', 'config', 'outbox', 'events'],
  provides: ['operators'],
  create: ({ db, clock, config, outbox }) => ({
    operators: createOperators({ db, clock, adminEmails: config.adminEmails, outbox, consoleUrl: `${config.publicUrl}/console` }),
  }),
  operations: operatorOperations,
  // An invited e-mail's first sign-in: its pending invitations become roles, in the sign-up's transaction.
  subscribers: [({ events, operators }) => events.on('user.created', (e, change) => operators.acceptInvitations(change, e.userId))],
});

declare module '../../platform/services.js' {
  interface Services {
    /** Operators' roles, and the admins' announcements of authority changes (issue 41). */
    operators: OperatorsService;
  }
}
