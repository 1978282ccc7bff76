import { defineModule } from '../../platform/module.js';
import { createKycService, type KycService } from './service.js';
import { kycOperations } from './operations.js';

/** The kyc module: what it needs, what it provides and what the composition root (services.ts) registers for it. */
export const kycModule = defineModule({
  name: 'kyc',
  needs: ['config', 'db', 'clock', 'log', 'identityLookups', 'storage', 'work', 'identity'],
  provides: ['kyc'],
  create: ({ identityLookups, identity, ...deps }) => ({
    kyc: createKycService({ ...deps, identity: identityLookups, forgetUser: identity.forgetUser }),
  }),
  operations: kycOperations,
});

declare module '../../platform/services.js' {
  interface Services {
    kyc: KycService;
  }
}
