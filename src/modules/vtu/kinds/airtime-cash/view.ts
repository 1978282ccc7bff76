import { toNaira } from '../../../../kernel/money.js';
import type { AirtimeCashRow } from './repository.js';

/** A rate in basis points as a percentage. */
export const rateOf = (bp: number) => bp / 100;
/** A timestamp as ISO text, or null. */
export const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** What the customer (and an operator) sees of a request; the provider's request id stays inside. */
export function airtimeCashView(r: AirtimeCashRow) {
  const amount = BigInt(r.amount);
  const received = r.amount_received === null ? null : BigInt(r.amount_received);
  return {
    id: r.id,
    reference: r.reference,
    status: r.status,
    network: r.network,
    phone: r.sender,
    amount: toNaira(amount),
    rate: rateOf(r.rate_bp),
    expectedCredit: toNaira((amount * BigInt(r.rate_bp)) / 10_000n),
    receivingNumber: r.receiving_number,
    ussd: r.ussd,
    expiresAt: iso(r.expires_at)!,
    amountReceived: received === null ? null : toNaira(received),
    credited: r.credited === null ? null : toNaira(r.credited),
    partial: received !== null && received < amount,
    ...(r.failure_reason ? { failureReason: r.failure_reason } : {}),
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
  };
}
