/**
 * In-process domain events, emitted on a change (`change.emit`): each subscriber's writes join the emitter's change, so
 * they commit or roll back with it (e.g. a purchase recorded for the referral it may qualify).
 */
export interface DomainEvents {
  /** A user account was created (first login); referralCode as typed at sign-up. */
  'user.created': { userId: string; referralCode?: string };
  /** A KYC tier was approved. */
  'kyc.approved': { userId: string; tier: number };
  /** Money arrived in a user's wallet from outside it (top-up, DVA transfer, transfer received, refund excluded). */
  'wallet.credited': {
    userId: string;
    amount: bigint;
    source: 'topup' | 'dva' | 'transfer' | 'adjustment' | 'savings' | 'other';
    reference: string;
  };
  /** A VTU purchase was delivered. */
  'vtu.succeeded': { userId: string; transactionId: string; amount: bigint; service: string };
  /** A VTU purchase failed and the whole amount went back to the wallet; amount and refunded in kobo. */
  'vtu.failed': PurchaseRefund;
  /**
   * Money of a delivered purchase went back to the wallet: the undelivered part of a partly delivered order, or a
   * cancelled flight's refund; at most once per purchase. amount (what the wallet paid) and refunded in kobo.
   */
  'vtu.refunded': PurchaseRefund;
  /**
   * A batch of recharge cards (e-PINs, issue 45) was settled: `delivered` of `quantity` cards are ready, and what was not
   * delivered (`refunded`, kobo) went back to the wallet in the same change. Once per batch.
   */
  'epin.batch_ready': { userId: string; batchId: string; delivered: number; quantity: number; refunded: bigint };
  /** The account was closed (settings): scrub personal data you hold for this user, keep money records. */
  'account.closed': { userId: string };
}

export type EventName = keyof DomainEvents;

/** A purchase's money going back to its buyer ('vtu.failed', 'vtu.refunded'). */
export interface PurchaseRefund {
  userId: string;
  transactionId: string;
  /** The purchase's reference (vtu_transactions.reference). */
  reference: string;
  service: string;
  amount: bigint;
  refunded: bigint;
}
