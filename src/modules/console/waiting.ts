import type { Executor } from '../../db/client.js';
import { MINUTE } from '../../kernel/clock.js';
import { pendingApprovals } from '../approvals/api.js';
import { stuckWithdrawals, topupProblems } from '../payments/api.js';
import { openTransactionReports } from '../reports/api.js';
import { openSupportThreads } from '../support/api.js';

/** A top-up still pending this long after it began has likely lost its webhook: an operator verifies it. */
export const TOPUP_LOST_AFTER_MS = 5 * MINUTE;
/** WITHDRAWAL_STUCK_AFTER_MINUTES' default: a withdrawal still pending this long waits for an operator's requery. */
export const WITHDRAWAL_STUCK_AFTER_MS = 60 * MINUTE;

export const ageSeconds = (from: string | null, now: Date) =>
  from === null ? null : Math.max(0, Math.round((now.getTime() - new Date(from).getTime()) / 1000));

/**
 * The work people wait on beside the platform's queues (issue 44): money requests for a second operator, open
 * support threads, open transaction reports, top-ups with no outcome after a few minutes or paid a different amount,
 * withdrawals still pending with the processor past `withdrawalStuckAfterMs` (issue 43). Each count is one statement
 * of its owner module, run side by side.
 */
export async function waitingWork(db: Executor, now: Date, withdrawalStuckAfterMs = WITHDRAWAL_STUCK_AFTER_MS) {
  const [approvals, support, reports, topups, withdrawals] = await Promise.all([
    pendingApprovals(db, now),
    openSupportThreads(db),
    openTransactionReports(db),
    topupProblems(db, now, TOPUP_LOST_AFTER_MS),
    stuckWithdrawals(db, now, withdrawalStuckAfterMs),
  ]);
  return {
    approvals: { pending: approvals.count, oldestAgeSeconds: ageSeconds(approvals.oldest, now) },
    support: { open: support.count, awaitingReply: support.awaitingReply, oldestAwaitingSeconds: ageSeconds(support.oldestAwaiting, now) },
    reports: { open: reports.count, oldestAgeSeconds: ageSeconds(reports.oldest, now) },
    topups: {
      pending: topups.pending,
      oldestPendingSeconds: ageSeconds(topups.oldestPending, now),
      pendingAfterSeconds: TOPUP_LOST_AFTER_MS / 1000,
      underpaid: topups.underpaid,
      overpaid: topups.overpaid,
    },
    withdrawals: {
      stuck: withdrawals.count,
      oldestStuckSeconds: ageSeconds(withdrawals.oldest, now),
      stuckAfterSeconds: withdrawalStuckAfterMs / 1000,
    },
  };
}
