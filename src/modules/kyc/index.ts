import { defineModule } from '../../http/registry.js';
import { kycOperations } from './operations.js';
import { registerKycFileRoute } from '../../http/routes/kyc-files.js';

/** The kyc module: what the composition root (modules/index.ts) registers for it. */
export const kycModule = defineModule({
  name: 'kyc',
  operations: kycOperations,
  routes: [registerKycFileRoute],
});
