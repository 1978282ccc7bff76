/**
 * How a notification is worded in the reader's language (issue 29), written once for the service (push, e-mail and
 * SMS in the customer's language) and the app (the inbox): a notification's kind and params pick one wording case
 * (`noticeCase`), and each language has a title and a body for every case, with `{{param}}` placeholders. A kind
 * with no case (an operator's broadcast) or a case missing a parameter it needs is shown in the service's own English
 * text instead. `text` is always available: the service's English body, for the cases whose body is a person's own
 * words (a support reply, a report's resolution note).
 */

/** Every wording case and the parameters its title and body need. */
export const NOTICE_CASES = {
  topup_credited: ['amount'],
  purchase_delivered: ['service', 'amount', 'recipient'],
  purchase_delivered_token: ['service', 'amount', 'recipient', 'token'],
  purchase_failed: ['service', 'amount', 'recipient'],
  purchase_refunded: ['service', 'amount', 'recipient'],
  transfer_sent: ['amount', 'to'],
  transfer_received: ['amount', 'from'],
  transfer_received_note: ['amount', 'from', 'note'],
  kyc_approved: ['tier'],
  kyc_rejected: ['tier', 'reason'],
  login_new_sign_in: ['when', 'browser', 'os'],
  login_new_sign_in_town: ['when', 'browser', 'os', 'town'],
  login_failures: ['failures'],
  login_credential: ['change', 'when'],
  login_reset_requested: ['when', 'resetAt'],
  login_signed_out: [],
  login_signed_out_removal: ['removalAt'],
  login_removal_cancelled: [],
  support_reply: ['text'],
  savings_matured: ['total', 'interest'],
  loan_repaid: [],
  loan_due_soon: ['outstanding', 'dueDate'],
  loan_overdue: ['outstanding'],
  loan_overdue_fee: ['outstanding', 'lateFee'],
  loan_still_overdue: ['outstanding'],
  referral_unlocked: ['amount'],
  referral_milestone: ['threshold', 'amount'],
  schedule_failed: ['service', 'phone'],
  schedule_paused: ['service', 'phone', 'failures'],
  report_resolved: ['text'],
  order_fulfilled: ['reference'],
  order_refunded: ['reference'],
  wallet_credited: ['amount', 'reason'],
  wallet_debited: ['amount', 'reason'],
  account_frozen: [],
  account_unfrozen: [],
  airtime_cash_credited: ['amount', 'received'],
  airtime_cash_partial: ['amount', 'received', 'expected'],
  airtime_cash_closed: ['expected'],
  flight_cancelled: ['amount', 'fee', 'route'],
  withdrawal_paid: ['amount', 'name', 'bank'],
  withdrawal_refunded: ['amount', 'total', 'bank'],
} as const satisfies Record<string, readonly string[]>;

export type NoticeCase = keyof typeof NOTICE_CASES;
export type NoticeParams = Record<string, string | number>;

/** Parameters that are naira amounts: each language writes them as money (₦1,000.00), without a sign. */
export const MONEY_PARAMS: ReadonlySet<string> = new Set([
  'amount',
  'total',
  'interest',
  'outstanding',
  'lateFee',
  'received',
  'expected',
  'fee',
]);

/** The account changes a security notice names (login_credential's `change`); each language words each one. */
export const CREDENTIAL_CHANGES = [
  'login_pin_set',
  'login_pin_changed',
  'login_pin_disabled',
  'transaction_pin_set',
  'transaction_pin_changed',
  'totp_enrolled',
  'totp_removed',
  'totp_reset_requested',
  'totp_reset_done',
  'phone_changed',
  'passkey_added',
  'passkey_removed',
  'recovery_code_used',
  'recovery_codes_regenerated',
] as const;

/** The languages notifications are worded in (any other preference reads English). */
export type NoticeLanguage = 'en' | 'ha' | 'pcm' | 'yo';

/** A service's name in each language (a service kind declares its own: modules/vtu/kinds/<kind>/names.ts). */
export type ServiceNames = Record<NoticeLanguage, string>;

/**
 * The name a purchase notice gives a service (`service`) in a language, or undefined for a service nobody sells: the
 * service's wording gets it from the kinds' list (the VTU module's serviceName, wired in by the composition root), the
 * app's inbox from the kinds' names.ts files (web/src/features/notifications/wording.ts).
 */
export type ServiceNameOf = (service: string, language: NoticeLanguage) => string | undefined;

const CASE_BY_EVENT: Record<string, Record<string, NoticeCase>> = {
  login_alert: {
    new_sign_in: 'login_new_sign_in',
    failures: 'login_failures',
    credential: 'login_credential',
    signed_out: 'login_signed_out',
    removal_cancelled: 'login_removal_cancelled',
  },
  general: {
    loan_repaid: 'loan_repaid',
    referral_unlocked: 'referral_unlocked',
    referral_milestone: 'referral_milestone',
    airtime_cash_credited: 'airtime_cash_credited',
    airtime_cash_partial: 'airtime_cash_partial',
    airtime_cash_expired: 'airtime_cash_closed',
    airtime_cash_failed: 'airtime_cash_closed',
    flight_cancelled: 'flight_cancelled',
    withdrawal_paid: 'withdrawal_paid',
    withdrawal_refunded: 'withdrawal_refunded',
  },
  loan_due: { soon: 'loan_due_soon', overdue: 'loan_overdue', still_overdue: 'loan_still_overdue' },
};

const has = (p: NoticeParams, k: string) => p[k] !== undefined && p[k] !== '';

function caseOf(kind: string, p: NoticeParams): NoticeCase | null {
  switch (kind) {
    case 'topup_credited':
    case 'purchase_failed':
    case 'purchase_refunded':
    case 'transfer_sent':
    case 'support_reply':
    case 'savings_matured':
    case 'report_resolved':
    case 'account_frozen':
    case 'account_unfrozen':
      return kind;
    case 'purchase_delivered':
      return has(p, 'token') ? 'purchase_delivered_token' : 'purchase_delivered';
    case 'transfer_received':
      return has(p, 'note') ? 'transfer_received_note' : 'transfer_received';
    case 'kyc_decision':
      return p.status === 'approved' ? 'kyc_approved' : p.status === 'rejected' ? 'kyc_rejected' : null;
    case 'schedule_failed':
      return has(p, 'failures') ? 'schedule_paused' : 'schedule_failed';
    case 'order_update':
      return p.status === 'fulfilled' ? 'order_fulfilled' : p.status === 'cancelled' || p.status === 'failed' ? 'order_refunded' : null;
    case 'wallet_adjusted':
      return typeof p.amount === 'number' ? (p.amount < 0 ? 'wallet_debited' : 'wallet_credited') : null;
    case 'login_alert': {
      const c = CASE_BY_EVENT.login_alert[String(p.event)] ?? null;
      if (c === 'login_credential' && p.change === 'totp_reset_requested' && has(p, 'resetAt')) return 'login_reset_requested';
      if (c === 'login_credential' && !(CREDENTIAL_CHANGES as readonly unknown[]).includes(p.change)) return null;
      if (c === 'login_signed_out' && has(p, 'removalAt')) return 'login_signed_out_removal';
      if (c === 'login_new_sign_in' && has(p, 'town')) return 'login_new_sign_in_town';
      return c;
    }
    case 'loan_due': {
      const c = CASE_BY_EVENT.loan_due[String(p.stage)] ?? null;
      return c === 'loan_overdue' && typeof p.lateFee === 'number' && p.lateFee > 0 ? 'loan_overdue_fee' : c;
    }
    case 'general':
      return CASE_BY_EVENT.general[String(p.event)] ?? null;
    default:
      return null;
  }
}

/**
 * The wording case of a notification, or null when it is to be shown in the service's English text: a kind with no
 * case, or a parameter the case needs missing (`text` is the English body, always given by the caller), or a purchase
 * of a service `named` does not know (the caller's names of the kinds: the service's list, the app's names.ts files).
 */
export function noticeCase(kind: string, params: NoticeParams, named: (service: unknown) => boolean): NoticeCase | null {
  const c = caseOf(kind, params);
  if (!c) return null;
  if (c.startsWith('purchase_') && !named(params.service)) return null;
  return NOTICE_CASES[c].every((k) => has(params, k)) ? c : null;
}

/** `{{name}}` placeholders filled from `values` (a missing one stays empty: noticeCase checked they are there). */
export const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k] ?? ''));
