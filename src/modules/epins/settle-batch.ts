import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { encrypt } from '../../lib/crypto.js';
import { formatNaira } from '../../kernel/money.js';
import type { Entry } from '../../ledger/types.js';
import type { EpinAnswer } from '../../providers/epins.js';
import type { EpinsDeps } from './deps.js';

/** The seller's float on our books: what a batch's cards cost us, like a VTU provider's float. */
export const EPIN_FLOAT = 'provider_float:epins' as const;

/** A batch's money, in kobo, for `n` cards: the wallet's price, the seller's, and our margin. */
export function batchEntries(userId: string, n: bigint, unitPrice: bigint, unitWholesale: bigint, sign: 1n | -1n): Entry[] {
  const entries: Entry[] = [
    { account: { user: userId, kind: 'wallet' }, amount: -sign * unitPrice * n },
    { account: { system: EPIN_FLOAT }, amount: sign * unitWholesale * n },
  ];
  if (unitPrice !== unitWholesale) entries.push({ account: { system: 'revenue' }, amount: sign * (unitPrice - unitWholesale) * n });
  return entries;
}

type Settled = { user_id: string; quantity: number; delivered: number; unit_price: string; unit_wholesale: string; refunded: string };

/**
 * Settles a processing batch with the seller's answer, once (issue 45): the batch leaves `processing` by ONE conditional
 * UPDATE (a concurrent settler waits on its row lock and then finds it settled, and does nothing), its delivered cards
 * are ONE INSERT (the PINs encrypted before the transaction), and what was not delivered is refunded by one posting
 * under `epin_refund:<id>`, in the same transaction: a failed batch gets everything back, a partial batch the
 * undelivered cards' price, exactly once. A pending or unreadable answer settles nothing (asked again later).
 * Answers whether this call settled the batch.
 */
export async function settleBatch(deps: Pick<EpinsDeps, 'db' | 'clock' | 'work' | 'secretKey'>, id: string, answer: EpinAnswer) {
  if (answer.status === 'pending' || answer.status === 'unknown') return false;
  const { db, clock, work, secretKey } = deps;
  const cards = answer.pins.map((c, i) => ({ seq: i + 1, pin: encrypt(secretKey, c.pin), serial: c.serial }));
  const n = cards.length;
  const reason = answer.status === 'failed' ? answer.reason : null;
  const now = clock.now();
  return db.transaction(async (tx) => {
    const b = await one<Settled>(
      tx,
      sql`UPDATE epin_batches
             SET status = CASE WHEN ${n}::int = 0 THEN 'failed' WHEN ${n}::int < quantity THEN 'partial' ELSE 'delivered' END,
                 delivered = ${n}::int, refunded = unit_price * (quantity - ${n}::int), failure_reason = ${reason}, settled_at = ${now}
           WHERE id = ${id} AND status = 'processing' AND quantity >= ${n}::int
       RETURNING user_id::text AS user_id, quantity, delivered, unit_price::text AS unit_price, unit_wholesale::text AS unit_wholesale,
                 refunded::text AS refunded`,
    );
    if (!b) return false;
    if (n > 0)
      await tx.execute(
        sql`INSERT INTO epin_cards (batch_id, seq, pin_encrypted, serial)
            SELECT ${id}, c.seq, c.pin, c.serial FROM jsonb_to_recordset(${JSON.stringify(cards)}::jsonb) AS c(seq int, pin text, serial text)`,
      );
    const missing = BigInt(b.quantity - n);
    const change = work.change(tx).emit('epin.batch_ready', {
      userId: b.user_id,
      batchId: id,
      delivered: n,
      quantity: b.quantity,
      refunded: BigInt(b.refunded),
    });
    if (missing > 0n)
      change.post({
        reference: `epin_refund:${id}`,
        type: 'vtu_refund',
        description: `Recharge cards not delivered: ${missing} of ${b.quantity} (${formatNaira(BigInt(b.refunded))} back)`,
        entries: batchEntries(b.user_id, missing, BigInt(b.unit_price), BigInt(b.unit_wholesale), -1n),
        metadata: { batchId: id },
      });
    await change.commit();
    return true;
  });
}
