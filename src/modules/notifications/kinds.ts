import type { NotificationKind } from './notifier.js';

/**
 * The closed list of notification kinds (issue 29): with `params`, what a client needs to word a notification in
 * the reader's language instead of showing the English title and body. Kept equal to NotificationKind by the
 * type checks below. Which message a kind + params is, and the params each message needs, are in
 * src/kernel/notices.ts (NOTICE_CASES; the app's inbox and the service's push, e-mail and SMS word it from there); a
 * kind with several messages names it in a param (login_alert and general: event, loan_due: stage, kyc_decision and
 * order_update: status). A client falls back to the English text when a param it needs is missing.
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
  'operator_alert',
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
