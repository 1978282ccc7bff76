import { MINUTE } from '../../kernel/clock.js';
import type { VtuPurchaseDeps } from './deps.js';
import { requery } from './provider-requests.js';
import * as repo from './repository.js';

/** Requeries every due processing transaction once; returns how many were checked. */
export async function reconcileDue(deps: VtuPurchaseDeps, max = 500): Promise<number> {
  const { db, clock, log, cfg } = deps;
  const { applyRequery } = deps.settlement;
  let done = 0;
  while (done < max) {
    const now = clock.now();
    const batch = await repo.claimDue(db, now, new Date(now.getTime() + Math.max(MINUTE, 3 * cfg.timeoutMs)), 16);
    if (!batch.length) break;
    await Promise.all(
      batch.map(async (row) => {
        try {
          await applyRequery(row, await requery(deps, row));
        } catch (err) {
          log.error({ err, transactionId: row.id }, 'vtu requery failed');
        }
      }),
    );
    done += batch.length;
  }
  return done;
}
