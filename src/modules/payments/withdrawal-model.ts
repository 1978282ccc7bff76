import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { one, type Executor } from '../../db/client.js';
import type { Narrowed, RowOf } from '../../db/rows.js';
import { notFound } from '../../kernel/errors.js';
import { naira, toNaira } from '../../kernel/money.js';
import type { withdrawals } from './schema.js';

/**
 * Withdrawals to a bank account (issue 43): the rows, the view, the ledger's names and the jobs. The money:
 * - requested: wallet -(amount + fee), `payouts` +(amount + fee) (type `withdrawal`, an outflow: the daily limit);
 * - settled (the processor paid the bank): `payouts` -(amount + fee), `collections` +amount (it left the processor
 *   balance our top-ups arrive in), `revenue:withdrawal_fees` +fee;
 * - failed before settling: `payouts` -(amount + fee), wallet +(amount + fee) (type `withdrawal_refund`, nets the limit);
 * - reversed after settling: `collections` -amount, `revenue:withdrawal_fees` -fee, wallet +(amount + fee).
 * The refund's ledger reference is one per withdrawal, so it is posted once whatever reaches it.
 */
export const PAYOUTS_ACCOUNT = 'payouts' as const;
export const WITHDRAWAL_FEE_ACCOUNT = 'revenue:withdrawal_fees' as const;

export const JOB_WITHDRAWAL_SEND = 'payments.withdrawal.send';
export const JOB_WITHDRAWAL_POLL = 'payments.withdrawal.poll';
/** The send job's attempts; after the last, the poll asks the processor what became of the reference. */
export const WITHDRAWAL_SEND_ATTEMPTS = 6;

export const refundReferenceOf = (reference: string) => `${reference}:refund`;
export const settleReferenceOf = (reference: string) => `${reference}:settle`;

export type WithdrawalStatus = 'pending' | 'success' | 'failed' | 'reversed';
export type WithdrawalRow = Narrowed<
  Pick<
    RowOf<typeof withdrawals>,
    | 'id'
    | 'user_id'
    | 'reference'
    | 'processor'
    | 'bank_code'
    | 'bank_name'
    | 'account_number'
    | 'account_name'
    | 'amount'
    | 'fee'
    | 'status'
    | 'transfer_code'
    | 'failure_reason'
    | 'polls'
    | 'created_at'
    | 'settled_at'
  >,
  { status: WithdrawalStatus }
>;

export const WITHDRAWAL_COLUMNS = sql.raw(
  `id, user_id, reference, processor, bank_code, bank_name, account_number, account_name, amount::text AS amount, fee::text AS fee,
   status, transfer_code, failure_reason, polls, created_at, settled_at`,
);

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export function withdrawalView(r: WithdrawalRow) {
  return {
    reference: r.reference,
    status: r.status,
    amount: toNaira(r.amount),
    fee: toNaira(r.fee),
    total: toNaira(BigInt(r.amount) + BigInt(r.fee)),
    bankCode: r.bank_code,
    bankName: r.bank_name,
    accountNumber: r.account_number,
    accountName: r.account_name,
    failureReason: r.failure_reason,
    createdAt: iso(r.created_at)!,
    settledAt: iso(r.settled_at),
  };
}

export const withdrawalOutput = z
  .object({
    reference: z.string(),
    status: z.enum(['pending', 'success', 'failed', 'reversed']).meta({
      description: 'pending: debited, the transfer is under way; success: paid; failed and reversed: refunded (amount and fee)',
    }),
    amount: naira,
    fee: naira,
    total: naira.meta({ description: 'amount + fee: what left the wallet' }),
    bankCode: z.string(),
    bankName: z.string(),
    accountNumber: z.string(),
    accountName: z.string(),
    failureReason: z.string().nullable(),
    createdAt: z.string(),
    settledAt: z.string().nullable(),
  })
  .meta({ id: 'Withdrawal' });

export async function withdrawalById(exec: Executor, id: string) {
  return one<WithdrawalRow>(exec, sql`SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE id = ${id}`);
}

export async function withdrawalByReference(exec: Executor, processor: string, reference: string) {
  return one<WithdrawalRow>(
    exec,
    sql`SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE reference = ${reference} AND processor = ${processor}`,
  );
}

/** The caller's own withdrawal; another's (or none) is NOT_FOUND. */
export async function ownWithdrawal(exec: Executor, userId: string, reference: string) {
  const r = await one<WithdrawalRow>(
    exec,
    sql`SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE reference = ${reference} AND user_id = ${userId}`,
  );
  if (!r) throw notFound('Withdrawal');
  return r;
}
