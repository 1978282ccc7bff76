import type { Tx } from '../../db/client.js';
import type { PostInput } from '../../ledger/ledger.js';
import type { Work } from '../../platform/change.js';
import type { WalletLimits } from '../wallet/api.js';

/**
 * Order money (marketplace and subscription orders): the wallet pays into the system account `orders`, which
 * holds it until an operator fulfils (-> revenue) or cancels/fails the order (-> back to the wallet). Each leg
 * has a reference derived from the order's, so the ledger's unique reference makes every leg happen once.
 */
export type OrderLedgerType = 'marketplace_order' | 'subscription_order';

export async function holdOrderMoney(
  deps: { work: Work; walletLimits: WalletLimits },
  tx: Tx,
  o: {
    userId: string;
    kycTier: number;
    amount: bigint;
    reference: string;
    type: OrderLedgerType;
    description: string;
  },
) {
  await deps.work
    .change(tx)
    .post({
      reference: o.reference,
      type: o.type,
      description: o.description,
      entries: [
        { account: { user: o.userId, kind: 'wallet' }, amount: -o.amount },
        { account: { system: 'orders' }, amount: o.amount },
      ],
      // Orders count toward the tier's daily outflow (docs/design.md §6), checked on the wallet row the posting locks.
      limits: [deps.walletLimits.outflowLimit(o.userId, o.kycTier)],
    })
    .commit();
}

/** The refund leg: the held money back to the customer's wallet. */
export function refundPosting(o: { userId: string; amount: bigint; reference: string; description: string }): PostInput {
  return {
    reference: `${o.reference}:refund`,
    type: 'order_refund',
    description: o.description,
    entries: [
      { account: { system: 'orders' }, amount: -o.amount },
      { account: { user: o.userId, kind: 'wallet' }, amount: o.amount },
    ],
  };
}

/** The settlement leg: the held money to revenue. */
export function settlePosting(o: { amount: bigint; reference: string; description: string }): PostInput {
  return {
    reference: `${o.reference}:settle`,
    type: 'order_settlement',
    description: o.description,
    entries: [
      { account: { system: 'orders' }, amount: -o.amount },
      { account: { system: 'revenue' }, amount: o.amount },
    ],
  };
}
