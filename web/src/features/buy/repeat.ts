import { saveDraft, type DraftFields } from '../../app/draft';
import { BUY_SERVICES, type BuyService } from '../../app/buy-services';
import type { PurchaseRecord } from '../../components/receipt-details';

/**
 * "Buy again": the purchase's own inputs become the next form's draft (its fields are named as the operation's
 * inputs). The service states them (`repeat.input`) where it does; otherwise they are read back from the purchase.
 */
export function repeatDraft(tx: PurchaseRecord): { service: BuyService; fields: DraftFields } | null {
  const service = BUY_SERVICES.find((s) => s === tx.service);
  if (!service) return null;
  const stated = (tx as { repeat?: { input?: DraftFields } }).repeat?.input;
  if (stated) {
    const { pin: _pin, ...fields } = stated as DraftFields & { pin?: unknown };
    return { service, fields };
  }
  const faceValue = (tx as { value?: number }).value ?? tx.amount;
  const fields: DraftFields = {};
  if (service === 'airtime' || service === 'data') {
    fields.phone = tx.recipient;
    if (tx.network) fields.network = tx.network;
    if (tx.ported) fields.ported = true;
    if (service === 'airtime') fields.amount = faceValue;
    else if (tx.planId) fields.plan_id = tx.planId;
  }
  return { service, fields };
}

export function startRepeat(tx: PurchaseRecord): BuyService | null {
  const draft = repeatDraft(tx);
  if (!draft) return null;
  saveDraft(draft);
  return draft.service;
}
