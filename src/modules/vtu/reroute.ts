import type { Entry } from '../../ledger/ledger.js';
import type { ProviderId } from '../../providers/vtu/types.js';
import { floatAccount } from './model.js';
import * as repo from './repository.js';
import type { VtuRow } from './repository.js';
import { firstCheckDelay, type VtuSettlementDeps } from './settlement-deps.js';

/** A fallback to the provider `to`: the row moves and the wholesale moves between the floats; null when it cannot. */
export async function reroute(
  { db, clock, work, cfg, wholesaleAt }: VtuSettlementDeps,
  row: VtuRow,
  to: ProviderId,
): Promise<VtuRow | null> {
  const w = await wholesaleAt(row, to);
  if (w === null) return null;
  const now = clock.now();
  return db.transaction(async (tx) => {
    const moved = await repo.reroute(tx, row.id, row.provider, to, w, now, new Date(now.getTime() + firstCheckDelay(cfg)));
    if (!moved) return null;
    const from = BigInt(row.wholesale);
    const entries: Entry[] = [
      { account: floatAccount(row.provider), amount: -from },
      { account: floatAccount(to), amount: w },
    ];
    if (from !== w) entries.push({ account: { system: 'revenue' }, amount: from - w });
    await work
      .change(tx)
      .post({
        reference: `vtu_reroute_${row.reference}_${to}`,
        type: 'vtu_reroute',
        description: `Fallback ${row.provider.toUpperCase()} -> ${to.toUpperCase()}`,
        entries,
        metadata: { transactionId: row.id },
      })
      .commit();
    return moved;
  });
}
