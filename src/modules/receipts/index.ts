import { defineModule } from '../../platform/module.js';
import { createReceiptService, type ReceiptService } from './service.js';
import { loadReceiptKey } from './keys.js';
import { receiptOperations } from './operations.js';

/** The receipts module: what it needs, what it provides and what the composition root (services.ts) registers for it. */
export const receiptsModule = defineModule({
  name: 'receipts',
  needs: ['config', 'db', 'clock'],
  provides: ['receipts'],
  create: ({ config, db, clock }) => ({
    receipts: createReceiptService({ db, clock, key: loadReceiptKey(config), issuer: config.publicUrl }),
  }),
  operations: receiptOperations,
});

declare module '../../platform/services.js' {
  interface Services {
    receipts: ReceiptService;
  }
}
