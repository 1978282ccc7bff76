import type { Outcome } from '../../providers/vtu/types.js';
import * as repo from './repository.js';
import type { VtuRow } from './repository.js';
import { settleFailed } from './settle-failed.js';
import { settleSuccess } from './settle-success.js';
import { backoff, firstCheckDelay, type VtuSettlementDeps } from './settlement-deps.js';

/** Keeps a purchase processing with its next check backed off; one past cfg.stuckAfterMs is marked for an operator. */
export async function keepPending({ db, clock, log, cfg }: VtuSettlementDeps, row: VtuRow, providerStatus: string, requeries: number) {
  const now = clock.now();
  const stuck = now.getTime() - new Date(row.created_at).getTime() >= cfg.stuckAfterMs;
  if (stuck && !row.stuck_at)
    log.warn({ transactionId: row.id, reference: row.reference, provider: row.provider }, 'vtu transaction needs an operator');
  await repo.markPending(db, row.id, row.provider, {
    nextCheckAt: new Date(now.getTime() + (requeries === 0 ? firstCheckDelay(cfg) : backoff(cfg, requeries))),
    providerStatus,
    now,
    stuck,
  });
}

/** Applies a requery answer. A definite failure found by requery refunds; it does not fall back. */
export async function applyRequery(deps: VtuSettlementDeps, row: VtuRow, out: Outcome) {
  switch (out.status) {
    case 'delivered':
      return settleSuccess(deps, row, out);
    case 'failed':
      return settleFailed(deps, row, out.message, 'failed');
    case 'not_found': {
      // The provider has no record: trusted only after a grace period, so a request still in flight is not refunded.
      const age = deps.clock.now().getTime() - new Date(row.sent_at).getTime();
      if (age >= deps.cfg.notFoundGraceMs) return settleFailed(deps, row, 'The provider has no record of this purchase', 'not_found');
      return keepPending(deps, row, 'not_found', row.requery_count);
    }
    default:
      return keepPending(deps, row, out.status, row.requery_count);
  }
}
