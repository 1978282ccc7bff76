import { MINUTE } from '../../../../kernel/clock.js';
import { toNaira } from '../../../../kernel/money.js';
import type { ReceiptStatus } from './adapter.js';
import { credit } from './credit.js';
import type { AirtimeCashSettlementDeps } from './deps.js';
import * as repo from './repository.js';
import type { AirtimeCashRow } from './repository.js';

/** The wait before the next requery after `n` of them, doubling from VTU's reconcile interval up to ten minutes. */
const backoff = (config: AirtimeCashSettlementDeps['config'], n: number) =>
  Math.min(config.vtu.reconcileEveryMs * 2 ** Math.max(0, n - 1), 10 * MINUTE);

/** Closes an awaiting request with nothing credited, and tells the customer why. */
export async function close(
  { db, clock, work }: AirtimeCashSettlementDeps,
  row: AirtimeCashRow,
  to: 'expired' | 'failed',
  reason: string,
  providerStatus: string,
) {
  await db.transaction(async (tx) => {
    const closed = await repo.closeAwaiting(tx, row.id, to, reason, providerStatus, clock.now());
    if (!closed) return;
    await work
      .change(tx)
      .notify({
        userId: row.user_id,
        kind: 'general',
        title: to === 'expired' ? 'Airtime-to-cash request expired' : 'Airtime-to-cash request closed',
        body: `Your airtime-to-cash request ${row.reference} from ${row.sender} was closed with nothing credited: ${reason}`,
        data: {
          event: `airtime_cash_${to}`,
          requestId: row.id,
          reference: row.reference,
          network: row.network,
          amount: toNaira(row.amount),
        },
      })
      .commit();
  });
}

/**
 * Applies what the provider says of a request (webhook or requery). Only `received` credits; `expired`, `failed`, or
 * nothing received once the request's time is up closes it with nothing credited; an answer we cannot read decides
 * nothing. Returns the provider's status as recorded.
 */
export async function apply(deps: AirtimeCashSettlementDeps, row: AirtimeCashRow, r: ReceiptStatus): Promise<string> {
  const { config, db, clock, log } = deps;
  const now = clock.now();
  switch (r.status) {
    case 'received':
      await credit(deps, row, r);
      return r.status;
    case 'expired':
      await close(deps, row, 'expired', 'no airtime reached the provider before the request expired', 'expired');
      return r.status;
    case 'failed':
      await close(deps, row, 'failed', r.message, 'failed');
      return r.status;
    case 'awaiting':
    case 'not_found':
      if (now.getTime() >= new Date(row.expires_at).getTime()) {
        await close(deps, row, 'expired', 'no airtime reached the provider before the request expired', r.status);
        return r.status;
      }
      break;
    case 'unknown':
      if (now.getTime() - new Date(row.expires_at).getTime() >= config.vtu.stuckAfterMs)
        log.warn(
          { requestId: row.id, reference: row.reference },
          'airtime-to-cash request needs an operator: the provider cannot say what arrived',
        );
      break;
  }
  await repo.markChecked(db, row.id, r.status, new Date(now.getTime() + backoff(config, row.requery_count + 1)), now);
  return r.status;
}
