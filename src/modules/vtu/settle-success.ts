import type { Tx } from '../../db/client.js';
import type { NotificationInput } from '../../kernel/notification.js';
import { formatNaira, toNaira } from '../../kernel/money.js';
import { faultPoint } from '../../lib/faults.js';
import type { Change } from '../../platform/change.js';
import type { Outcome } from '../../providers/vtu/types.js';
import { kindNamed } from './kinds/index.js';
import { capital, purchaseEntries } from './model.js';
import * as repo from './repository.js';
import type { VtuRow } from './repository.js';
import type { OnSettled, VtuSettlementDeps } from './settlement-deps.js';

/**
 * Returns the settled row, or null when another settlement got there first. The settlement, the buyer's
 * notification and the 'vtu.succeeded' subscribers' writes are ONE statement; with onSettled (an operator's record)
 * that statement and the record share a transaction.
 */
export async function settleSuccess(
  { db, clock, work }: VtuSettlementDeps,
  row: VtuRow,
  out: Outcome,
  onSettled?: OnSettled,
): Promise<VtuRow | null> {
  const kind = kindNamed(row.service);
  const lines = kind.receiptLines?.(row, out) ?? [];
  const settling = {
    details: { ...(out.details ?? {}), ...(lines.length ? { receiptLines: lines } : {}) },
    now: clock.now(),
    providerStatus: 'delivered',
  };
  // A partly delivered purchase (kinds' partialRefund): the undelivered part goes back with the settlement.
  const part = kind.partialRefund?.(row, out) ?? null;
  const refund = part && part.wholesale + part.markup > 0n ? part : null;
  // The notice and the event's fields are the row's as created: a settlement changes none of them.
  const settle = (change: Change) =>
    repo.settle(
      change.notify(deliveredNotice(row, out)).emit('vtu.succeeded', {
        userId: row.user_id,
        transactionId: row.id,
        amount: BigInt(row.amount),
        service: row.service,
      }),
      row.id,
      row.provider,
      'success',
      settling,
    );
  const done =
    onSettled || refund
      ? await db.transaction(async (tx) => {
          const settled = await settle(work.change(tx));
          if (settled) {
            await onSettled?.(tx, settled);
            if (refund) await refundPart(work, tx, settled, refund);
          }
          return settled;
        })
      : await settle(work.change());
  if (!done) return null;
  faultPoint('vtu.settle.afterCommit');
  return done;
}

/** The buyer's notice of a delivered purchase, with the facts a client words it from in the reader's language. */
function deliveredNotice(row: VtuRow, out: Outcome): NotificationInput {
  const kind = kindNamed(row.service);
  const note = kind.deliveredNote?.(row, out);
  return {
    userId: row.user_id,
    kind: 'purchase_delivered',
    title: `${capital(kind.label)} delivered`,
    body: `Your ${formatNaira(BigInt(row.amount))} ${kind.label} for ${row.recipient} was delivered.${out.details?.token ? ` Token: ${out.details.token}` : ''}${note ? ` ${note}` : ''}`,
    data: {
      transactionId: row.id,
      reference: row.reference,
      service: row.service,
      amount: toNaira(row.amount),
      recipient: row.recipient,
      ...(out.details?.token ? { token: out.details.token } : {}),
      ...(out.details?.units ? { units: out.details.units } : {}),
    },
  };
}

/**
 * The undelivered part of a delivered purchase back to the wallet, from the float and revenue, with its
 * 'vtu.refunded'; once per purchase.
 */
async function refundPart(work: VtuSettlementDeps['work'], tx: Tx, done: VtuRow, part: { wholesale: bigint; markup: bigint }) {
  const amount = part.wholesale + part.markup;
  await work
    .change(tx)
    .post({
      reference: `vtu_partial_refund_${done.reference}`,
      type: 'vtu_refund',
      description: `Refund: the undelivered part of ${kindNamed(done.service).label} for ${done.recipient}`,
      entries: purchaseEntries(done.user_id, amount, done.provider, part.wholesale, part.markup).map((e) => ({
        ...e,
        amount: -e.amount,
      })),
      metadata: { transactionId: done.id },
    })
    .emit('vtu.refunded', {
      userId: done.user_id,
      transactionId: done.id,
      reference: done.reference,
      service: done.service,
      amount: BigInt(done.amount),
      refunded: amount,
    })
    .commit();
}
