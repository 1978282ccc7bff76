import type { Executor } from '../../db/client.js';
import { pendingApprovals } from '../approvals/api.js';
import { openTransactionReports } from '../reports/api.js';
import { openSupportThreads } from '../support/api.js';

export const ageSeconds = (from: string | null, now: Date) =>
  from === null ? null : Math.max(0, Math.round((now.getTime() - new Date(from).getTime()) / 1000));

/**
 * The work people wait on beside the platform's queues (issue 44): money requests for a second operator, open
 * support threads, open transaction reports. Each count is one statement of its owner module, run side by side.
 */
export async function waitingWork(db: Executor, now: Date) {
  const [approvals, support, reports] = await Promise.all([pendingApprovals(db, now), openSupportThreads(db), openTransactionReports(db)]);
  return {
    approvals: { pending: approvals.count, oldestAgeSeconds: ageSeconds(approvals.oldest, now) },
    support: { open: support.count, awaitingReply: support.awaitingReply, oldestAwaitingSeconds: ageSeconds(support.oldestAwaiting, now) },
    reports: { open: reports.count, oldestAgeSeconds: ageSeconds(reports.oldest, now) },
  };
}
