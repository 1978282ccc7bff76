import { sql } from 'drizzle-orm';
import { MINUTE, SECOND } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';
import type { TransferAnswer } from '../../providers/processor.js';
import type { WithdrawalDeps } from './withdraw.js';
import { JOB_WITHDRAWAL_POLL, withdrawalById, withdrawalByReference, type WithdrawalRow } from './withdrawal-model.js';
import { refundWithdrawal, settleWithdrawal } from './withdrawal-settle.js';

/**
 * The processor's side of a withdrawal (issue 43): the send job starts the transfer under the withdrawal's reference,
 * the poll asks what became of one still pending, and the webhook's transfer events end it. Every path ends the row
 * through withdrawal-settle.ts, whose guarded UPDATE lets exactly one of them move the money.
 */
const POLL_FIRST_MS = 30 * SECOND;
const POLL_MAX_MS = 30 * MINUTE;
/** A reference the processor still has no transfer for this long after the request never reached it: refunded. */
const NOT_FOUND_GRACE_MS = 30 * MINUTE;

const pollDelay = (polls: number) => Math.min(POLL_FIRST_MS * 2 ** Math.min(polls, 10), POLL_MAX_MS);

async function enqueuePoll(deps: WithdrawalDeps, w: WithdrawalRow) {
  await deps.jobs.enqueue(
    deps.db,
    JOB_WITHDRAWAL_POLL,
    { id: w.id },
    { delayMs: pollDelay(w.polls), singletonKey: `withdrawal-poll:${w.id}:${w.polls}` },
  );
}

/** What an answer from the processor means for a pending withdrawal. */
async function apply(deps: WithdrawalDeps, w: WithdrawalRow, a: TransferAnswer) {
  if (a.status === 'success') return void (await settleWithdrawal(deps, w, a.transferCode));
  if (a.status === 'failed' || a.status === 'reversed')
    return void (await refundWithdrawal(deps, w, a.reason ?? 'The bank did not accept the transfer', a.status === 'reversed'));
  await deps.db.execute(
    sql`UPDATE withdrawals SET transfer_code = COALESCE(${a.transferCode}::text, transfer_code), polls = polls + 1, updated_at = ${deps.clock.now()}
        WHERE id = ${w.id} AND status = 'pending'`,
  );
  await enqueuePoll(deps, w);
}

/** The send job: starts the transfer (the same reference on a retry answers the same transfer). */
export async function sendWithdrawal(deps: WithdrawalDeps, id: string, isLastAttempt: boolean) {
  const w = await withdrawalById(deps.db, id);
  if (!w || w.status !== 'pending') return;
  const adapter = deps.processors.get(w.processor);
  if (!adapter) throw new Error(`payments: processor ${w.processor} is no longer configured`);
  let answer: TransferAnswer;
  try {
    answer = await adapter.startTransfer({
      reference: w.reference,
      amount: BigInt(w.amount),
      bankCode: w.bank_code,
      accountNumber: w.account_number,
      accountName: w.account_name,
      reason: 'Wallet withdrawal',
    });
  } catch (err) {
    // The processor may hold the transfer even though its answer was lost: the poll asks it, by reference.
    if (isLastAttempt && err instanceof AppError && err.code === 'UPSTREAM_ERROR') await enqueuePoll(deps, w);
    throw err;
  }
  await apply(deps, w, answer);
}

/** The poll job: a withdrawal still pending asks the processor for its transfer. */
export async function pollWithdrawal(deps: WithdrawalDeps, id: string) {
  const w = await withdrawalById(deps.db, id);
  if (!w || w.status !== 'pending') return;
  const adapter = deps.processors.get(w.processor);
  if (!adapter) throw new Error(`payments: processor ${w.processor} is no longer configured`);
  const a = await adapter.verifyTransfer(w.reference);
  if (a.status === 'not_found') {
    const age = deps.clock.now().getTime() - new Date(w.created_at).getTime();
    if (age >= NOT_FOUND_GRACE_MS) return void (await refundWithdrawal(deps, w, 'The transfer never reached the processor'));
    return apply(deps, w, { status: 'pending', transferCode: null, reason: null });
  }
  await apply(deps, w, a);
}

/**
 * A webhook's transfer event (transfer.success, transfer.failed, transfer.reversed) for our reference: the outcome it
 * reports, or null when the reference is not a withdrawal. Answers what the event did, for its record.
 */
export async function transferEvent(deps: WithdrawalDeps, processor: string, event: string, reference: string) {
  const w = await withdrawalByReference(deps.db, processor, reference);
  if (!w) return null;
  if (event === 'transfer.success') return (await settleWithdrawal(deps, w)) ? 'withdrawal paid' : `withdrawal already ${w.status}`;
  const reversal = event === 'transfer.reversed';
  const done = await refundWithdrawal(
    deps,
    w,
    reversal ? 'The bank sent the transfer back' : 'The bank did not accept the transfer',
    reversal,
  );
  return done ? `withdrawal ${done.status}: refunded` : 'withdrawal already ended';
}
