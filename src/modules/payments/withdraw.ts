import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { AuthUser } from '../../kernel/actor.js';
import type { Clock } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';
import { prefixedId, uuid } from '../../kernel/ids.js';
import { formatNaira, toKobo, toNaira } from '../../kernel/money.js';
import type { Logger } from '../../lib/logger.js';
import type { Work } from '../../platform/change.js';
import { BANKS, bankByCode } from '../../providers/identity.js';
import type { ProcessorRegistry } from '../../providers/processor.js';
import type { WalletLimits } from '../wallet/api.js';
import { JOB_WITHDRAWAL_SEND, PAYOUTS_ACCOUNT, withdrawalView, type WithdrawalRow } from './withdrawal-model.js';

/** What withdrawals use (withdraw.ts, withdrawal-settle.ts, withdrawal-jobs.ts). */
export interface WithdrawalDeps {
  db: Db;
  clock: Clock;
  work: Work;
  jobs: JobQueue;
  walletLimits: WalletLimits;
  processors: ProcessorRegistry;
  /** WITHDRAWAL_FEE, kobo. */
  fee: bigint;
  /** WITHDRAWAL_STUCK_AFTER_MINUTES: a withdrawal still pending this long is listed for an operator. */
  stuckAfterMs: number;
  log: Logger;
}

const accountRefused = () =>
  new AppError('VALIDATION_FAILED', 'The bank could not find this account: check the number and the bank', {
    issues: [{ path: 'accountNumber', message: 'the bank could not find this account' }],
  });

function bankOf(code: string) {
  const bank = bankByCode(code);
  if (!bank)
    throw new AppError('VALIDATION_FAILED', 'bankCode must be a code from the bank list', {
      issues: [{ path: 'bankCode', message: 'bankCode must be a code from the bank list' }],
    });
  return bank;
}

/** getWithdrawalOptions: the banks, the fee and the amount's bounds, what the app shows before the customer confirms. */
export function withdrawalOptions({ fee }: Pick<WithdrawalDeps, 'fee'>, bounds: { min: number; max: number }) {
  return { fee: toNaira(fee), minAmount: bounds.min, maxAmount: bounds.max, banks: BANKS.map((b) => ({ code: b.code, name: b.name })) };
}

/** resolveWithdrawalAccount: name enquiry at the processor; an account it cannot find is a VALIDATION_FAILED. */
export async function resolveWithdrawalAccount(
  { processors }: Pick<WithdrawalDeps, 'processors'>,
  bankCode: string,
  accountNumber: string,
) {
  const bank = bankOf(bankCode);
  const r = await processors.default.resolveAccount(bank.code, accountNumber);
  if (!r.found || !r.accountName) throw accountRefused();
  return { bankCode: bank.code, bankName: bank.name, accountNumber, accountName: r.accountName };
}

/**
 * withdrawToBank: the account's name is asked again (never taken from the client), then ONE change: the posting (the
 * wallet debited amount + fee into the payouts account, within the daily outflow limit, checked on the locked row),
 * the withdrawal's row and the job that starts the processor's transfer, all written only if it posts. The request's
 * Idempotency-Key claim is marked by the posting, so a repeated key answers this withdrawal and never debits twice.
 */
export async function withdraw(deps: WithdrawalDeps, user: AuthUser, input: { bankCode: string; accountNumber: string; amount: number }) {
  const { clock, work, walletLimits, processors, fee } = deps;
  const account = await resolveWithdrawalAccount(deps, input.bankCode, input.accountNumber);
  const amount = toKobo(input.amount);
  const total = amount + fee;
  const now = clock.now();
  const row: WithdrawalRow = {
    id: uuid(),
    user_id: user.id,
    reference: prefixedId('wdr', now.getTime()),
    processor: processors.default.id,
    bank_code: account.bankCode,
    bank_name: account.bankName,
    account_number: account.accountNumber,
    account_name: account.accountName,
    amount: amount.toString(),
    fee: fee.toString(),
    status: 'pending',
    transfer_code: null,
    failure_reason: null,
    polls: 0,
    created_at: now,
    settled_at: null,
  };
  const { posted } = await work
    .change()
    .post({
      reference: row.reference,
      type: 'withdrawal',
      description: `Withdrawal to ${account.bankName} ${account.accountNumber} (${account.accountName}), fee ${formatNaira(fee)}`,
      entries: [
        { account: { user: user.id, kind: 'wallet' }, amount: -total },
        { account: { system: PAYOUTS_ACCOUNT }, amount: total },
      ],
      metadata: { withdrawalId: row.id, fee: fee.toString(), bankCode: account.bankCode, accountNumber: account.accountNumber },
      limits: [walletLimits.outflowLimit(user.id, user.kycTier)],
    })
    .write(insertEach, { ...row, created_at: now.toISOString() })
    .enqueue(JOB_WITHDRAWAL_SEND, { id: row.id }, { singletonKey: `withdrawal:${row.id}` })
    .commit();
  return { withdrawal: withdrawalView(row), balance: toNaira(posted!.balances[`user:${user.id}:wallet`]) };
}

const insertEach = (each: SQL) =>
  sql`INSERT INTO withdrawals (id, user_id, reference, processor, bank_code, bank_name, account_number, account_name, amount, fee, status, created_at, updated_at)
      SELECT r.id, r.user_id, r.reference, r.processor, r.bank_code, r.bank_name, r.account_number, r.account_name, r.amount, r.fee, 'pending', r.created_at, r.created_at
      FROM ${each}, jsonb_to_record(each.data) AS r(id uuid, user_id uuid, reference text, processor text, bank_code text, bank_name text,
        account_number text, account_name text, amount bigint, fee bigint, created_at timestamptz)`;
