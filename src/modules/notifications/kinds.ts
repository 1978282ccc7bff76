import type { NotificationKind } from './notifier.js';

/**
 * The closed list of notification kinds (issue 29): with `params`, what a client needs to word a notification in
 * the reader's language instead of showing the English title and body. Kept equal to NotificationKind by the
 * type checks below. Parameters by kind (each present when the emitter knew it; a client falls back to the English
 * text when one it needs is missing):
 * - topup_credited: amount, reference, source
 * - purchase_delivered, purchase_failed, purchase_refunded: service, amount, recipient, reference, token (electricity)
 * - transfer_sent: amount, to; transfer_received: amount, from
 * - login_alert: failures; others: the scalar facts their emitter attached (ids, references, amounts).
 */
export const NOTIFICATION_KINDS = [
  'topup_credited',
  'purchase_delivered',
  'purchase_failed',
  'purchase_refunded',
  'transfer_sent',
  'transfer_received',
  'kyc_decision',
  'login_alert',
  'support_reply',
  'savings_matured',
  'loan_due',
  'schedule_failed',
  'report_resolved',
  'order_update',
  'wallet_adjusted',
  'account_frozen',
  'account_unfrozen',
  'broadcast',
  'general',
] as const satisfies readonly NotificationKind[];

// Every NotificationKind is listed (a kind added to the union without this list fails to compile).
type Missing = Exclude<NotificationKind, (typeof NOTIFICATION_KINDS)[number]>;
const everyKindListed: [Missing] extends [never] ? true : Missing = true;
void everyKindListed;

export type NotificationParams = Record<string, string | number>;

const KNOWN = new Set<string>(NOTIFICATION_KINDS);
/** A stored kind as the closed list names it; a row written under a retired name reads as general. */
export const kindOf = (kind: string): NotificationKind => (KNOWN.has(kind) ? (kind as NotificationKind) : 'general');

/** The parameters of a notification: the strings and finite numbers among the facts its emitter stored. */
export function paramsOf(data: Record<string, unknown> | null): NotificationParams {
  const out: NotificationParams = {};
  for (const [k, v] of Object.entries(data ?? {})) {
    if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) out[k] = v;
  }
  return out;
}
