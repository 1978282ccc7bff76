import { AsyncLocalStorage } from 'node:async_hooks';
import type { Part } from './change-statements.js';

/**
 * The Idempotency-Key claim of the request a posting is made under (src/http/idempotency.ts wins it; the request's
 * scope below carries it to the ledger). Its mark sets the claim 'committed' inside the posting's own
 * transaction, only if the posting is made: a process killed after the money moved and before the answer was stored
 * leaves the claim committed, and a retry with the same key is refused instead of moving the money again.
 */
export interface RequestClaim {
  /** The mark as a part of a posting: written in the posting's transaction, exactly when the posting is made. */
  readonly mark: Part;
}

/**
 * The request's own scope (issue 42): what the platform knows of the request an operation's handler runs for, found
 * by the code that needs it instead of being passed through every handler and service. It holds the request's
 * Idempotency-Key claim, which the ledger reads when a posting is asked for: the claim's mark then commits with the
 * money (src/http/idempotency.ts), and no domain code can forget to pass it on. Only the operation route enters a
 * scope, around the gates and the handler; jobs, webhooks and schedules run outside every scope and mark nothing.
 *
 * The scope is a holder that is emptied when the handler's call returns. AsyncLocalStorage follows every promise and
 * timer started inside it, so work the handler leaves running (a promise nobody awaits, a timer) would otherwise mark
 * the claim after the request is over; what it starts for others while it runs steps out with `apartFromRequests`.
 */
interface Scope {
  claim: RequestClaim | null;
  /** The answers of the operation's read-ahead (src/platform/reads.ts), by each read's key. */
  ahead: ReadonlyMap<string, unknown>;
}

const scope = new AsyncLocalStorage<Scope>();
const NOTHING_READ: ReadonlyMap<string, unknown> = new Map();

/**
 * Runs `fn` (the gates and the handler) as the work of the request whose claim is `claim` and whose read-ahead
 * answered `ahead` (by read key); with neither it enters no scope.
 */
export async function inRequestScope<T>(
  claim: RequestClaim | null,
  fn: () => Promise<T>,
  ahead: ReadonlyMap<string, unknown> = NOTHING_READ,
): Promise<T> {
  if (!claim && !ahead.size) return fn();
  const held: Scope = { claim, ahead };
  try {
    return await scope.run(held, fn);
  } finally {
    held.claim = null;
    held.ahead = NOTHING_READ;
  }
}

/** The claim of the request this code runs for while its handler runs, else null. */
export function requestClaim(): RequestClaim | null {
  return scope.getStore()?.claim ?? null;
}

/** The answer the request's read-ahead read under `key` while its handler runs; `found` false when it read none. */
export function readAheadAnswer(key: string): { found: boolean; value: unknown } {
  const ahead = scope.getStore()?.ahead;
  return ahead?.has(key) ? { found: true, value: ahead.get(key) } : { found: false, value: undefined };
}

/**
 * Runs `fn` as no request's work: what a request starts that is not its own (a provider float top-up every waiting
 * purchase shares, the job loop a request wakes) marks no request's claim, however long it runs.
 */
export function apartFromRequests<T>(fn: () => T): T {
  return scope.exit(fn);
}
