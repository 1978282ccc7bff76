import type { topupIntents } from './schema.js';
import type { Narrowed, RowOf } from '../../db/rows.js';
import { sql } from 'drizzle-orm';
import { DAY, HOUR, MINUTE } from '../../kernel/clock.js';
import { toNaira } from '../../kernel/money.js';

// Top-ups' limits, job names, rows and views, shared by the payments modules.

export { TOPUP_MAX_NAIRA, TOPUP_MIN_NAIRA } from './inputs.js';
/** An intent with no payment this long after creation is marked abandoned by reconciliation. */
export const ABANDON_AFTER_MS = HOUR;
/** Reconciliation looks back this far for intents that are not settled. */
export const RECONCILE_WINDOW_MS = 7 * DAY;
/** The daily run leaves intents this young to the webhook. */
export const RECONCILE_MIN_AGE_MS = 10 * MINUTE;
/** Dedicated-account transfers are looked up over this window of the processor's successful charges. */
export const DVA_RECONCILE_WINDOW_MS = 2 * DAY;

export const JOB_PROCESS_EVENT = 'payments.processEvent';
export const JOB_CREATE_DVA = 'payments.createDedicatedAccount';
export const JOB_RECONCILE = 'payments.reconcile';

export type IntentStatus = 'pending' | 'success' | 'failed' | 'abandoned';

export type IntentRow = Narrowed<
  Pick<
    RowOf<typeof topupIntents>,
    | 'id'
    | 'user_id'
    | 'reference'
    | 'processor'
    | 'amount'
    | 'status'
    | 'origin'
    | 'email'
    | 'checkout_url'
    | 'access_code'
    | 'amount_paid'
    | 'channel'
    | 'paid_at'
    | 'settled_at'
    | 'failure_reason'
    | 'created_at'
  >,
  { status: IntentStatus }
>;

export const INTENT_COLUMNS = sql.raw(
  `id, user_id, reference, processor, amount::text AS amount, status, origin, email, checkout_url, access_code,
   amount_paid::text AS amount_paid, channel, paid_at, settled_at, failure_reason, created_at`,
);

export const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export function intentView(r: IntentRow) {
  return {
    id: r.id,
    reference: r.reference,
    amount: toNaira(r.amount),
    status: r.status,
    checkoutUrl: r.checkout_url ?? '',
    processor: r.processor,
    createdAt: iso(r.created_at)!,
    amountPaid: r.amount_paid === null ? null : toNaira(r.amount_paid),
    channel: r.channel,
    paidAt: iso(r.paid_at),
    settledAt: iso(r.settled_at),
    failureReason: r.failure_reason,
  };
}

export interface AdminPaymentItem {
  kind: 'intent' | 'settlement' | 'event';
  id: string;
  reference: string | null;
  processor: string;
  createdAt: string;
  [field: string]: unknown;
}

export interface SettleInput {
  processor: string;
  reference: string;
  userId: string;
  intentId: string | null;
  kind: 'topup' | 'dva';
  amount: bigint;
  channel: string | null;
  paidAt: Date | null;
  source: 'webhook' | 'verify' | 'reconciliation';
}
