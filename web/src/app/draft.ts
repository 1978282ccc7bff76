import type { BuyService } from './buy-services';

/**
 * A purchase form's fields kept in this tab (sessionStorage): the form a session ended in the middle of, restored
 * after signing in again, the form kept while the wallet is funded for it, and the fields of a recent purchase "Buy
 * again" opens with. A form takes its draft once
 * (read and cleared) when it opens.
 */
export type DraftFields = Record<string, string | number | boolean>;
export interface BuyDraft {
  service: BuyService;
  fields: DraftFields;
  /** Kept while the wallet is funded for it: what the purchase still needs (keepForFunding). */
  funding?: number;
  /** The session ended under the form (markDraftForResume): the next sign-in opens it again. */
  resume?: boolean;
  /** Filled in for the customer (onboarding's airtime amounts): the form opens at its review. */
  review?: boolean;
}

const KEY = 'vtu.buyDraft';

export function saveDraft(draft: BuyDraft) {
  sessionStorage.setItem(KEY, JSON.stringify(draft));
}

export function peekDraft(): BuyDraft | null {
  try {
    const d = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as BuyDraft | null;
    return d && typeof d.service === 'string' && d.fields && typeof d.fields === 'object' ? d : null;
  } catch {
    return null;
  }
}

/** The draft's fields for `service`, cleared once read; null when there is none for it. */
export function takeDraft(service: BuyService): DraftFields | null {
  const d = peekDraft();
  if (!d || d.service !== service) return null;
  clearDraft();
  return d.fields;
}

/**
 * The balance is too low for the purchase being reviewed: its form stays in the tab while the customer funds the
 * wallet (closing the form keeps it, signing in again does not reopen it), the fund screen offers `shortfall`, and the
 * screen that confirms the payment leads back to the form, which opens filled in.
 */
export function keepForFunding(service: BuyService, shortfall: number) {
  const d = peekDraft();
  saveDraft({ service, fields: d?.service === service ? d.fields : {}, funding: shortfall });
}

export function clearDraft() {
  sessionStorage.removeItem(KEY);
}

/**
 * The session ended (auth.tsx): a form open at that moment is opened again after the next sign-in. A draft left
 * by a reload or a typed address is not marked, so a deep link (/settings, /rewards, /orders) opens its own screen.
 */
export function markDraftForResume() {
  const d = peekDraft();
  if (d && d.funding === undefined) saveDraft({ ...d, resume: true });
}
