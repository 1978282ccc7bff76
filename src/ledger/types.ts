import type { Db, Executor, Tx } from '../db/client.js';
import type { Part } from '../db/change-statements.js';

/**
 * Account references. User accounts are materialised (balance updated under the user's row lock, never
 * negative unless the kind allows it); system accounts are append-only so they are never a hot row.
 */
export type UserAccountKind = 'wallet' | 'bonus_locked' | 'referral_locked' | 'savings' | 'loan';
export type SystemAccount =
  | 'collections' // money received from the payment processor
  | 'provider_float' // money prefunded to VTU providers
  | 'revenue' // markups and fees
  | 'adjustments' // operator corrections
  | 'bonus_expense' // referral, check-in bonuses paid
  | 'interest_expense' // savings interest paid
  | 'loan_book' // money lent
  | 'orders' // marketplace/subscription money held until fulfilment
  | 'payouts' // withdrawals to bank accounts in flight at the processor (issue 43)
  | 'unallocated'; // credits with no owner yet

export type AccountRef = { user: string; kind: UserAccountKind } | { system: SystemAccount | `${SystemAccount}:${string}` };

export interface Entry {
  account: AccountRef;
  /** Signed kobo: positive credits the account, negative debits it. */
  amount: bigint;
}

export interface PostInput {
  reference: string;
  type: string;
  description: string;
  entries: Entry[];
  metadata?: Record<string, unknown>;
  /**
   * Limits on user wallets this posting touches, checked against the locked rows in the posting itself: a refused
   * limit writes nothing and throws the limit's own error. A daily outflow limit answers before the funds check, a
   * balance cap after it (a payer short of money learns nothing of the payee's balance).
   */
  limits?: WalletLimit[];
  /**
   * Other modules' writes that belong with the posting (its notifications, the purchase row, the events' writes): made
   * by the posting's own statement, exactly when it posts (composeParts, src/db/change-statements.ts). `when` is named `posted`; its
   * row has `id`, the ledger transaction's, and `balances` (jsonb: each user account's code to its balance after, in kobo).
   */
  parts?: Part[];
}

export interface WalletLimit {
  /** The user whose wallet (an account of this posting) the limit is on. */
  user: string;
  /** Refused when today's outflow (clamped at zero) plus this posting's would pass `max`. */
  dailyOutflow?: { max: bigint; refuse: (usedToday: bigint) => Error };
  /**
   * Refused when the balance after this posting would pass `max`. Only checked once the posting's funds are there.
   * When the wallet is not the caller's own, the error must not carry `balanceBefore` or anything derived from it.
   */
  balance?: { max: bigint; refuse: (balanceBefore: bigint) => Error };
}

/**
 * Outflow is money leaving the user's control (docs/design.md §6 daily limits): the debit side of these transaction types
 * on a wallet; the credit side of the refund types nets it. The ledger keeps each wallet's outflow for the current
 * Lagos day on its account row (outflow_day, outflow_today), moved by the same statement as the balance.
 */
export const OUTFLOW_TYPES = ['vtu_purchase', 'transfer_out', 'wallet_debit', 'marketplace_order', 'subscription_order', 'withdrawal'];
export const OUTFLOW_REFUND_TYPES = ['vtu_refund', 'order_refund', 'withdrawal_refund'];

/** What an entry adds to its account's outflow today (kobo, signed). */
export function outflowOf(type: string, e: Entry): bigint {
  if (!('user' in e.account) || e.account.kind !== 'wallet') return 0n;
  if (OUTFLOW_TYPES.includes(type) && e.amount < 0n) return -e.amount;
  if (OUTFLOW_REFUND_TYPES.includes(type) && e.amount > 0n) return -e.amount;
  return 0n;
}

export interface Posted {
  transactionId: string;
  /** Balance after, per user account code touched. */
  balances: Record<string, bigint>;
  /** The parts' answers, in the parts' order (src/db/change-statements.ts). */
  answers: unknown[];
}

/** Loans can go negative for the user (they owe); everything else a user holds cannot. */
export const NEGATIVE_ALLOWED: UserAccountKind[] = ['loan'];

/** The error ledger_retry() raises (migration 0005), possibly wrapped by drizzle. */
export function isRetrySignal(err: unknown): boolean {
  for (let e = err as { code?: string; message?: string; cause?: unknown } | undefined, i = 0; e && i < 3; e = e.cause as typeof e, i++) {
    if (e.code === '40001' && String(e.message).startsWith('ledger: a balance changed')) return true;
  }
  return false;
}

export function accountCode(ref: AccountRef): string {
  return 'user' in ref ? `user:${ref.user}:${ref.kind}` : `system:${ref.system}`;
}

export interface Ledger {
  /** Posts balanced entries inside the caller's transaction; throws DUPLICATE_REFERENCE on a reused reference. */
  post(tx: Tx, input: PostInput): Promise<Posted>;
  /** Like post, but a reused reference returns null without aborting the transaction (exactly-once credits). */
  tryPost(tx: Tx, input: PostInput): Promise<Posted | null>;
  /**
   * A posting that is a transaction on its own: ONE autocommit statement (locks, checks, money, parts, the
   * Idempotency-Key mark) when each user account appears once and exists, else post() in a transaction. A first
   * posting to a new account creates the empty account row first (committed on its own, harmless if the posting
   * is then refused).
   */
  postAlone(db: Db, input: PostInput): Promise<Posted>;
  balance(exec: Executor, ref: AccountRef): Promise<bigint>;
  userBalances(exec: Executor, userId: string): Promise<Record<UserAccountKind, bigint>>;
}
