import { defineModule } from '../../http/registry.js';
import { receiptOperations } from './operations.js';
import { receiptKeyRoute } from '../../http/routes/receipt-key.js';

/** The receipts module: what the composition root (modules/index.ts) registers for it. */
export const receiptsModule = defineModule({
  name: 'receipts',
  operations: receiptOperations,
  routes: [receiptKeyRoute],
});
