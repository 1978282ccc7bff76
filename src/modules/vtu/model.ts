import type { Entry } from '../../ledger/ledger.js';
import { AppError } from '../../kernel/errors.js';
import { HOUR } from '../../kernel/clock.js';
import { ulid } from '../../kernel/ids.js';
import { toNaira } from '../../kernel/money.js';
import { networkOf, type Network } from '../../kernel/phone.js';

// The network check, request ids, markups' view and ledger entries: shared by the VTU core and the kinds
// (kinds/<kind>); what is specific to a kind is in its folder.

export type { Prepared, Purchaser } from './kinds/kind.js';

export const NETWORK_NAMES: Record<Network, string> = { mtn: 'MTN', airtel: 'Airtel', glo: 'Glo', '9mobile': '9mobile' };

/** Spec rule 5: the recipient's network must match the prefix map unless the buyer says the number is ported. */
export function assertRecipientNetwork(network: Network, phone: string, ported: boolean | undefined) {
  if (ported) return;
  const actual = networkOf(phone);
  if (actual !== network) {
    throw new AppError(
      'NETWORK_MISMATCH',
      actual
        ? `${phone} is a ${NETWORK_NAMES[actual]} number, not ${NETWORK_NAMES[network]}; pick ${NETWORK_NAMES[actual]} or send ported: true if the number was ported`
        : `${phone} does not belong to ${NETWORK_NAMES[network]} by its prefix; send ported: true if the number was ported`,
    );
  }
}

/** VTpass-style request ids start with the Lagos date and time (YYYYMMDDHHmm); the rest is unique. */
export function requestIdFor(now: Date): string {
  const lagos = new Date(now.getTime() + HOUR).toISOString();
  return lagos.slice(0, 16).replace(/[-T:]/g, '') + ulid(now.getTime());
}

export function toMarkupOut(m: { service: string; provider: string | null; kind: 'flat' | 'percent'; value: bigint; updatedAt: Date }) {
  return {
    service: m.service,
    provider: m.provider,
    kind: m.kind,
    value: m.kind === 'flat' ? toNaira(m.value) : Number(m.value) / 100,
    updatedAt: m.updatedAt.toISOString(),
  };
}

export const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The fee and the value bought of a total: the markup for kinds with a fee on top, none for priced plans. */
export function feeSplit(feeOnTop: boolean, retail: bigint, markup: bigint) {
  const fee = feeOnTop ? markup : 0n;
  return { value: retail - fee, fee };
}

/** A provider's float account: money prefunded to it, on our books. */
export const floatAccount = (p: string) => ({ system: `provider_float:${p}` as const });

/** A purchase's entries: the wallet pays retail; the provider's float gets wholesale, revenue the markup. */
export function purchaseEntries(userId: string, retail: bigint, provider: string, wholesale: bigint, markup: bigint): Entry[] {
  const e: Entry[] = [
    { account: { user: userId, kind: 'wallet' }, amount: -retail },
    { account: floatAccount(provider), amount: wholesale },
  ];
  if (markup !== 0n) e.push({ account: { system: 'revenue' }, amount: markup });
  return e;
}
