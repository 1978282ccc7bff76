import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { MINUTE, SECOND } from '../../kernel/clock.js';
import { AppError, notFound } from '../../kernel/errors.js';
import type { TransferAnswer } from '../../providers/processor.js';
import type { WithdrawalDeps } from './withdraw.js';
import { JOB_WITHDRAWAL_POLL, WITHDRAWAL_COLUMNS, withdrawalById, withdrawalByReference, type WithdrawalRow } from './withdrawal-model.js';
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

/**
 * The next poll, carrying the poll count it follows: a poll whose count the row has moved past (an operator's requery
 * polled meanwhile and scheduled its own) ends without polling, so a withdrawal has one chain of polls.
 */
async function enqueuePoll(deps: WithdrawalDeps, w: WithdrawalRow, polls = w.polls) {
  await deps.jobs.enqueue(
    deps.db,
    JOB_WITHDRAWAL_POLL,
    { id: w.id, polls },
    { delayMs: pollDelay(w.polls), singletonKey: `withdrawal-poll:${w.id}:${w.polls}` },
  );
}

/** What an answer from the processor means for a pending withdrawal. */
async function apply(deps: WithdrawalDeps, w: WithdrawalRow, a: TransferAnswer) {
  if (a.status === 'success') return void (await settleWithdrawal(deps, w, a.transferCode));
  if (a.status === 'failed' || a.status === 'reversed')
    return void (await refundWithdrawal(deps, w, a.reason ?? 'The bank did not accept the transfer', a.status === 'reversed'));
  const polled = await one<{ polls: number }>(
    deps.db,
    sql`UPDATE withdrawals SET transfer_code = COALESCE(${a.transferCode}::text, transfer_code), polls = polls + 1, updated_at = ${deps.clock.now()}
        WHERE id = ${w.id} AND status = 'pending' RETURNING polls`,
  );
  if (polled) await enqueuePoll(deps, w, polled.polls);
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

/** Asks the processor what became of a pending withdrawal and acts on its answer; answers the processor's status. */
async function ask(deps: WithdrawalDeps, w: WithdrawalRow): Promise<TransferAnswer['status'] | 'not_found'> {
  const adapter = deps.processors.get(w.processor);
  if (!adapter) throw new Error(`payments: processor ${w.processor} is no longer configured`);
  const a = await adapter.verifyTransfer(w.reference);
  if (a.status === 'not_found') {
    const age = deps.clock.now().getTime() - new Date(w.created_at).getTime();
    if (age >= NOT_FOUND_GRACE_MS) await refundWithdrawal(deps, w, 'The transfer never reached the processor');
    else await apply(deps, w, { status: 'pending', transferCode: null, reason: null });
    return 'not_found';
  }
  await apply(deps, w, a);
  return a.status;
}

/**
 * The poll job: a withdrawal still pending asks the processor for its transfer. `polls`: the count the job was
 * scheduled after; a job behind the row's count is a replaced chain's and ends (a job from before the count was
 * carried has none).
 */
export async function pollWithdrawal(deps: WithdrawalDeps, id: string, polls?: number) {
  const w = await withdrawalById(deps.db, id);
  if (!w || w.status !== 'pending' || (polls !== undefined && polls !== w.polls)) return;
  await ask(deps, w);
}

/**
 * An operator's requery (adminRequeryWithdrawal): asks the processor now, as the poll does, and the processor's answer
 * decides (settled, refunded through withdrawal-settle.ts's guarded ends, or polled again with a fresh chain of polls,
 * which also restarts one whose jobs died). A withdrawal no longer pending is answered as it is, without asking.
 */
export async function requeryWithdrawal(deps: WithdrawalDeps, reference: string) {
  const w = await one<WithdrawalRow>(deps.db, sql`SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE reference = ${reference}`);
  if (!w) throw notFound('Withdrawal');
  const processorStatus = w.status === 'pending' ? await ask(deps, w) : null;
  return { row: (await withdrawalById(deps.db, w.id))!, processorStatus };
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
