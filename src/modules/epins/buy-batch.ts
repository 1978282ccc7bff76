import { sql } from 'drizzle-orm';
import type { AuthUser } from '../../kernel/actor.js';
import { prefixedId } from '../../kernel/ids.js';
import { formatNaira, toKobo } from '../../kernel/money.js';
import type { EpinsDeps } from './deps.js';
import type { EpinPricing } from './pricing.js';
import { batchEntries, settleBatch } from './settle-batch.js';
import { REQUERY_JOB, REQUERY_AFTER_MS } from './requery.js';
import { batchView, getBatch } from './batches.js';

export interface BuyEpins {
  network: string;
  denomination: number;
  quantity: number;
  businessName?: string;
}

/**
 * buyEpins (issue 45): a batch of airtime e-PINs at the buyer's price level, paid from the wallet in ONE posting
 * (docs/architecture.md "Write a money operation"): the wallet's debit, the seller's float and our margin under
 * `epin:<id>`, the daily outflow limit checked on the locked wallet row, and the batch's `processing` row and its
 * requery job written only when it posts. Then the seller is asked once with the batch id as its request id, and what
 * it answers settles the batch (settle-batch.ts: the cards in one statement, a refund of the undelivered part once).
 * A seller that does not answer leaves the batch processing: the requery job (and every read of it) asks again.
 */
export async function buyBatch(deps: EpinsDeps & { pricing: EpinPricing }, user: Pick<AuthUser, 'id' | 'kycTier'>, input: BuyEpins) {
  const { work, walletLimits, clock, pricing } = deps;
  const priced = await pricing.price(user.id, input.network, input.denomination);
  const now = clock.now();
  const id = prefixedId('epb', now.getTime());
  const q = BigInt(input.quantity);
  const amount = priced.unitPrice * q;
  const businessName = input.businessName ?? 'Recharge card';
  const label = `${input.quantity} × ${formatNaira(toKobo(input.denomination))} ${input.network.toUpperCase()} recharge cards`;
  await work
    .change()
    .post({
      reference: `epin:${id}`,
      type: 'vtu_purchase',
      description: `${label} (${formatNaira(amount)})`,
      entries: batchEntries(user.id, q, priced.unitPrice, priced.unitWholesale, 1n),
      metadata: { batchId: id, level: priced.level.id },
      limits: [walletLimits.outflowLimit(user.id, user.kycTier)],
    })
    .write(
      (each) =>
        sql`INSERT INTO epin_batches (id, user_id, network, denomination, quantity, unit_price, unit_wholesale, amount, price_level,
                                      business_name, status, created_at)
            SELECT ${id}, ${user.id}::uuid, ${input.network}, ${toKobo(input.denomination)}, ${input.quantity}, ${priced.unitPrice},
                   ${priced.unitWholesale}, ${amount}, ${priced.level.id}, ${businessName}, 'processing', ${now}::timestamptz FROM ${each}`,
    )
    .enqueue(REQUERY_JOB, { id }, { delayMs: REQUERY_AFTER_MS, singletonKey: `epins.requery:${id}` })
    .commit();
  if (deps.provider) {
    const answer = await deps.provider.buy({
      requestId: id,
      network: input.network,
      denomination: input.denomination,
      quantity: input.quantity,
    });
    await settleBatch(deps, id, answer);
  }
  const batch = await getBatch(deps, user.id, id);
  return { batch: batchView(batch), amount: batchView(batch).paid };
}
