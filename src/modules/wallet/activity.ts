/**
 * Activity lines (getWalletState.log) as a kind and parameters (issue 29), so a client words them in the reader's
 * language; `description` stays, in English, for API clients. Kinds, by the ledger types they cover, and their
 * parameters:
 * - topup (topup), dva_credit (dva_credit)
 * - purchase (vtu_purchase), purchase_refund (vtu_refund): service, recipient
 * - transfer_sent, transfer_received (transfer_out, seen from each side): username (the other side, when it has one)
 * - wallet_debit, order (marketplace_order, subscription_order), order_refund
 * - savings_lock, savings_release (savings_matured, savings_break)
 * - loan_disbursement, loan_repayment, loan_fee (loan_late_fee)
 * - bonus (checkin_withdrawal, referral_unlock, referral_bonus, referral_milestone, checkin_bonus)
 * - adjustment: reason
 * - airtime_cash (airtime_cash): airtime converted to wallet money on the provider's confirmation
 * - withdrawal (withdrawal), withdrawal_refund (withdrawal_refund): money out to a bank account, and its refund
 * - other: any type not listed here
 */
export const ACTIVITY_KINDS = [
  'topup',
  'dva_credit',
  'purchase',
  'purchase_refund',
  'transfer_sent',
  'transfer_received',
  'wallet_debit',
  'order',
  'order_refund',
  'savings_lock',
  'savings_release',
  'loan_disbursement',
  'loan_repayment',
  'loan_fee',
  'bonus',
  'adjustment',
  'airtime_cash',
  'withdrawal',
  'withdrawal_refund',
  'other',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

const BY_TYPE: Record<string, ActivityKind> = {
  topup: 'topup',
  dva_credit: 'dva_credit',
  vtu_purchase: 'purchase',
  vtu_refund: 'purchase_refund',
  transfer_out: 'transfer_sent',
  transfer_in: 'transfer_received',
  wallet_debit: 'wallet_debit',
  marketplace_order: 'order',
  subscription_order: 'order',
  order_refund: 'order_refund',
  savings_lock: 'savings_lock',
  savings_matured: 'savings_release',
  savings_break: 'savings_release',
  loan_disbursement: 'loan_disbursement',
  loan_repayment: 'loan_repayment',
  loan_late_fee: 'loan_fee',
  checkin_withdrawal: 'bonus',
  checkin_bonus: 'bonus',
  referral_unlock: 'bonus',
  referral_bonus: 'bonus',
  referral_milestone: 'bonus',
  adjustment: 'adjustment',
  airtime_cash: 'airtime_cash',
  withdrawal: 'withdrawal',
  withdrawal_refund: 'withdrawal_refund',
};

export const activityKindOf = (type: string): ActivityKind => BY_TYPE[type] ?? 'other';

/** The string facts of a line (null and missing ones left out). */
export function activityParams(facts: Record<string, unknown> | null): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(facts ?? {})) {
    if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) out[k] = v;
  }
  return out;
}
