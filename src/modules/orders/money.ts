import type { Tx } from '../../db/client.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { WalletLimits } from '../wallet/api.js';

/**
 * Order money (marketplace and subscription orders): the wallet pays into the system account `orders`, which
 * holds it until an operator fulfils (-> revenue) or cancels/fails the order (-> back to the wallet). Each leg
 * has a reference derived from the order's, so the ledger's unique reference makes every leg happen once.
 */
export type OrderLedgerType = 'marketplace_order' | 'subscription_order';

export async function holdOrderMoney(
  deps: { ledger: Ledger; walletLimits: WalletLimits },
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
  await deps.ledger.post(tx, {
    reference: o.reference,
    type: o.type,
    description: o.description,
    entries: [
      { account: { user: o.userId, kind: 'wallet' }, amount: -o.amount },
      { account: { system: 'orders' }, amount: o.amount },
    ],
    // Orders count toward the tier's daily outflow (docs/design.md §6), checked on the wallet row the posting locks.
    limits: [deps.walletLimits.outflowLimit(o.userId, o.kycTier)],
  });
}

export async function refundOrderMoney(
  ledger: Ledger,
  tx: Tx,
  o: { userId: string; amount: bigint; reference: string; description: string },
) {
  await ledger.post(tx, {
    reference: `${o.reference}:refund`,
    type: 'order_refund',
    description: o.description,
    entries: [
      { account: { system: 'orders' }, amount: -o.amount },
      { account: { user: o.userId, kind: 'wallet' }, amount: o.amount },
    ],
  });
}

export async function settleOrderMoney(ledger: Ledger, tx: Tx, o: { amount: bigint; reference: string; description: string }) {
  await ledger.post(tx, {
    reference: `${o.reference}:settle`,
    type: 'order_settlement',
    description: o.description,
    entries: [
      { account: { system: 'orders' }, amount: -o.amount },
      { account: { system: 'revenue' }, amount: o.amount },
    ],
  });
}
