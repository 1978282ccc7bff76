import { sql } from 'drizzle-orm';
import { rows } from '../../db/client.js';
import type { EpinsDeps } from './deps.js';
import { batchView, getBatch } from './batches.js';

/**
 * markEpinsSold (issue 45): marks cards of the caller's batch sold (or not sold again), by their serials, in one
 * statement; a card already sold keeps the time it was first marked. Serials not in the batch change nothing.
 */
export async function markSold(deps: Pick<EpinsDeps, 'db' | 'clock'>, userId: string, i: { id: string; serials: string[]; sold: boolean }) {
  await getBatch(deps, userId, i.id);
  const changed = await rows<{ seq: number }>(
    deps.db,
    sql`UPDATE epin_cards SET sold_at = CASE WHEN ${i.sold}::boolean THEN coalesce(sold_at, ${deps.clock.now()}::timestamptz) END
         WHERE batch_id = ${i.id} AND serial IN (SELECT jsonb_array_elements_text(${JSON.stringify(i.serials)}::jsonb))
           AND (sold_at IS NULL) = ${i.sold}::boolean
     RETURNING seq`,
  );
  return { batch: batchView(await getBatch(deps, userId, i.id)), changed: changed.length };
}
