import { formatNaira, toNaira } from '../../kernel/money.js';
import { kindNamed } from './kinds/index.js';
import { purchaseEntries } from './model.js';
import * as repo from './repository.js';
import type { VtuRow } from './repository.js';
import type { OnSettled, VtuSettlementDeps } from './settlement-deps.js';

/** Returns the settled row, or null when another settlement got there first. */
export async function settleFailed(
  { db, clock, work }: VtuSettlementDeps,
  row: VtuRow,
  reason: string | undefined,
  providerStatus: string,
  onSettled?: OnSettled,
): Promise<VtuRow | null> {
  return db.transaction(async (tx) => {
    const done = await repo.settle(work.change(tx), row.id, row.provider, 'failed', {
      failureReason: reason ?? 'The provider could not complete this purchase',
      now: clock.now(),
      providerStatus,
    });
    if (!done) return null;
    await onSettled?.(tx, done);
    // Refund in the same transaction that marks it failed; the reference makes a second refund impossible, and the
    // 'vtu.failed' subscribers' writes are made with the refund's posting.
    const label = kindNamed(done.service).label;
    const amount = BigInt(done.amount);
    await work
      .change(tx)
      .post({
        reference: `vtu_refund_${done.reference}`,
        type: 'vtu_refund',
        description: `Refund: ${label} for ${done.recipient} failed`,
        entries: purchaseEntries(done.user_id, amount, done.provider, BigInt(done.wholesale), BigInt(done.markup)).map((e) => ({
          ...e,
          amount: -e.amount,
        })),
        metadata: { transactionId: done.id },
      })
      .emit('vtu.failed', {
        userId: done.user_id,
        transactionId: done.id,
        reference: done.reference,
        service: done.service,
        amount,
        refunded: amount,
      })
      .notify({
        userId: done.user_id,
        kind: 'purchase_refunded',
        title: 'Purchase failed: refunded',
        body: `Your ${formatNaira(amount)} ${label} for ${done.recipient} failed; ${formatNaira(amount)} is back in your wallet.`,
        data: {
          transactionId: done.id,
          reference: done.reference,
          service: done.service,
          amount: toNaira(done.amount),
          recipient: done.recipient,
        },
      })
      .commit();
    return done;
  });
}
