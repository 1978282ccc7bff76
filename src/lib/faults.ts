/**
 * Test-only crash hook for the crash matrix (test/multi/crash-matrix.test.ts). When FAULT_POINT
 * names one of these points, the process kills itself with SIGKILL on reaching it: no finally block, no
 * rollback handler, no graceful close runs, exactly like a power cut or an OOM kill. Production refuses to start
 * with FAULT_POINT set (src/config.ts); unset, every point is a no-op comparison.
 */
export const FAULT_POINTS = [
  /** VTU purchase: the debit transaction committed, the provider has not been called. */
  'vtu.purchase.afterDebit',
  /** VTU purchase: the provider answered, the answer is not recorded yet. */
  'vtu.purchase.afterProvider',
  /** VTU purchase: the one-statement settlement (delivery, growth record and job) committed; the growth work after it has not run. */
  'vtu.settle.afterCommit',
  /** Top-up: the signed webhook's event is stored and its job enqueued; the job has not run. */
  'payments.webhook.afterStore',
  /** Top-up: inside the credit job's transaction, after the ledger post, before commit. */
  'payments.credit.beforeCommit',
  /** Transfer: inside the transaction, after the ledger post, before commit. */
  'wallet.transfer.beforeCommit',
  /** Transfer: committed, the response not sent. */
  'wallet.transfer.afterCommit',
] as const;

export type FaultPoint = (typeof FAULT_POINTS)[number];

let armed: FaultPoint | undefined;

/** Called once per app from createServices with config.faultPoint. */
export function armFaultPoint(point: FaultPoint | undefined): void {
  armed = point;
}

export function faultPoint(point: FaultPoint): void {
  if (armed === point) process.kill(process.pid, 'SIGKILL');
}
