import type { ReceiptStatus } from './adapter.js';
import { credit } from './credit.js';
import type { AirtimeCashSettlementDeps } from './deps.js';
import { apply, close } from './receipt.js';
import type { AirtimeCashRow } from './repository.js';

export { creditOf, ledgerReferenceOf } from './credit.js';

/**
 * What the provider says of a request, applied: a confirmed receipt credits (once, credit.ts), an expiry or a closure
 * closes with nothing credited, anything else waits for the next check (receipt.ts).
 */
export function createAirtimeCashSettlement(deps: AirtimeCashSettlementDeps) {
  return {
    credit: (row: AirtimeCashRow, r: Extract<ReceiptStatus, { status: 'received' }>) => credit(deps, row, r),
    close: (row: AirtimeCashRow, to: 'expired' | 'failed', reason: string, providerStatus: string) =>
      close(deps, row, to, reason, providerStatus),
    apply: (row: AirtimeCashRow, r: ReceiptStatus) => apply(deps, row, r),
  };
}
