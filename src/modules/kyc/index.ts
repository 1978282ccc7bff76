import { defineModule } from '../../http/registry.js';
import { kycOperations } from './operations.js';
import { registerKycFileRoute } from './file-route.js';

/** The kyc module: what the composition root (modules/index.ts) registers for it. */
export const kycModule = defineModule({
  name: 'kyc',
  operations: kycOperations,
  routes: [registerKycFileRoute],
});
