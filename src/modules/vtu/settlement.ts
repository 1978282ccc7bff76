import type { Outcome, ProviderId } from '../../providers/vtu/types.js';
import { applyRequery, keepPending } from './pending.js';
import type { VtuRow } from './repository.js';
import { reroute } from './reroute.js';
import { settleFailed } from './settle-failed.js';
import { settleSuccess } from './settle-success.js';
import { firstCheckDelay, type OnSettled, type VtuSettlementDeps } from './settlement-deps.js';

export type { OnSettled } from './settlement-deps.js';
export type VtuSettlement = ReturnType<typeof createVtuSettlement>;

/**
 * Settling purchases (docs/design.md §7): success, failure with its refund in the same transaction, a fallback to the
 * next provider, or still pending with the next check backed off. Each is guarded by a conditional UPDATE on
 * status 'processing' and a unique ledger reference, so it happens at most once whoever gets there first.
 */
export function createVtuSettlement(deps: VtuSettlementDeps) {
  return {
    firstCheckDelay: () => firstCheckDelay(deps.cfg),
    /** settle-success.ts: the settled row, or null when another settlement got there first. */
    settleSuccess: (row: VtuRow, out: Outcome, onSettled?: OnSettled) => settleSuccess(deps, row, out, onSettled),
    /** settle-failed.ts: the settled (refunded) row, or null when another settlement got there first. */
    settleFailed: (row: VtuRow, reason: string | undefined, providerStatus: string, onSettled?: OnSettled) =>
      settleFailed(deps, row, reason, providerStatus, onSettled),
    reroute: (row: VtuRow, to: ProviderId) => reroute(deps, row, to),
    keepPending: (row: VtuRow, providerStatus: string, requeries: number) => keepPending(deps, row, providerStatus, requeries),
    applyRequery: (row: VtuRow, out: Outcome) => applyRequery(deps, row, out),
  };
}
