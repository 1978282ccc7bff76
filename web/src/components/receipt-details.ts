import type { PostOutput } from '../api/client';
import { productLabel } from '../app/catalogue-labels';
import * as ops from '../api/operations';

/** What a purchase or a transfer adds to the signed receipt's lines (the service's own values, formatted here). */
export interface ReceiptDetails {
  recipient?: string;
  network?: string;
  plan?: string;
  units?: string;
  token?: string;
  /** What the service charged on top of the face value; shown with the total when above zero. */
  fee?: number;
}

export type PurchaseRecord = PostOutput<typeof ops.getMyVtuTransaction>['transaction'];

/** Services bought by face value: the wallet is charged the face value plus the service's fee. */
const FACE_VALUE = new Set(['airtime', 'electricity', 'betting']);

/**
 * A purchase's receipt lines: recipient, network, plan (as people write it: catalogue-labels.ts), units, token, and the fee as the difference between what the
 * wallet paid (`paid`, the signed receipt's amount) and the face value the customer bought.
 */
export function purchaseDetails(tx: PurchaseRecord, paid: number): ReceiptDetails {
  // The service states the fee on newer purchases; on older ones it is what the wallet paid above the face value.
  const stated = (tx as { fee?: number }).fee;
  const fee = stated ?? (FACE_VALUE.has(tx.service) ? Math.round((paid - tx.amount) * 100) / 100 : 0);
  return {
    recipient: tx.recipient,
    network: tx.network ? tx.network.toUpperCase() : undefined,
    plan: tx.product ? productLabel(tx.service, tx.product) : undefined,
    units: tx.units ?? undefined,
    token: tx.token ?? undefined,
    fee: fee > 0 ? fee : undefined,
  };
}
