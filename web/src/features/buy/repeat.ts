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
  } else if (service === 'electricity') {
    Object.assign(fields, { meter: tx.recipient, amount: faceValue, ...(tx.meterType ? { type: tx.meterType } : {}) });
    if (tx.phone) fields.phone = tx.phone;
  } else if (service === 'cable') {
    Object.assign(fields, { iuc: tx.recipient, ...(tx.planId ? { plan_id: tx.planId } : {}), ...(tx.phone ? { phone: tx.phone } : {}) });
  } else if (service === 'betting') {
    Object.assign(fields, { customer_id: tx.recipient, amount: faceValue });
  } else if (service === 'exam') {
    Object.assign(fields, { ...(tx.planId ? { exam: tx.planId } : {}), ...(tx.quantity ? { quantity: tx.quantity } : {}) });
    if (tx.phone) fields.phone = tx.phone;
  }
  return { service, fields };
}

export function startRepeat(tx: PurchaseRecord): BuyService | null {
  const draft = repeatDraft(tx);
  if (!draft) return null;
  saveDraft(draft);
  return draft.service;
}
