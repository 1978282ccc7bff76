import { defineModule } from '../../platform/module.js';
import { createSupportService, type SupportService } from './service.js';
import { supportOperations } from './operations.js';

/** The support module: what it needs, what it provides and what the composition root (services.ts) registers for it. */
export const supportModule = defineModule({
  name: 'support',
  needs: ['db', 'clock', 'work'],
  provides: ['support'],
  create: (deps) => ({ support: createSupportService(deps) }),
  operations: supportOperations,
});

declare module '../../platform/services.js' {
  interface Services {
    support: SupportService;
  }
}
