import type { Entry } from '../../ledger/ledger.js';
import { AppError } from '../../kernel/errors.js';
import { HOUR } from '../../kernel/clock.js';
import { ulid } from '../../kernel/ids.js';
import { toNaira } from '../../kernel/money.js';
import { networkOf, type Network } from '../../kernel/phone.js';
import type { ProviderId, VtuService as ServiceName } from '../../providers/vtu/types.js';
import type { REPEAT_OPERATIONS } from './inputs.js';
import type { VtuRow } from './repository.js';

// Purchases' inputs, labels and views, the network check, request ids and ledger entries: shared by the VTU modules.

export type PurchaseKind = ServiceName;

export interface PurchaseInputs {
  airtime: { network: Network; phone: string; amount: number; ported?: boolean };
  data: { network: Network; plan_id: string; phone: string; amount: number; ported?: boolean };
  cable: { identifier: string; iuc: string; plan_id: string; amount: number; phone: string };
  electricity: { plan: string; meter: string; type: 'prepaid' | 'postpaid'; amount: number; phone: string };
  betting: { betting_company: string; customer_id: string; amount: number };
  exam: { exam: string; quantity: number; phone: string; amount: number; profile_id?: string };
}

export interface Purchaser {
  id: string;
  kycTier: number;
}

export const NETWORK_NAMES: Record<Network, string> = { mtn: 'MTN', airtel: 'Airtel', glo: 'Glo', '9mobile': '9mobile' };
export const SERVICE_LABEL: Record<ServiceName, string> = {
  airtime: 'airtime',
  data: 'data',
  cable: 'cable TV subscription',
  electricity: 'electricity token',
  betting: 'betting wallet funding',
  exam: 'exam PIN',
};

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

/**
 * Services whose amount the buyer chooses (the face value): the markup is a fee on top of it, and the answer says
 * so. A plan's (data, cable, exam) retail price is its price: no fee line.
 */
export const FEE_ON_TOP: ReadonlySet<ServiceName> = new Set(['airtime', 'electricity', 'betting']);

/** The fee and the value bought of a total: the markup for services with a fee on top, none for priced plans. */
export function feeSplit(service: ServiceName, retail: bigint, markup: bigint) {
  const fee = FEE_ON_TOP.has(service) ? markup : 0n;
  return { value: retail - fee, fee };
}

/**
 * What "buy again" sends: the purchase operation and its inputs without the PIN, read from the transaction (issue
 * 29). A plan's amount is the price paid then; a changed price answers PRICE_CHANGED and the app quotes again.
 */
export function repeatOf(
  r: VtuRow,
  value: bigint,
): { operation: (typeof REPEAT_OPERATIONS)[number]; input: Record<string, string | number | boolean> } {
  const amount = toNaira(r.amount);
  const ported: Record<string, boolean> = r.ported ? { ported: true } : {};
  switch (r.service as ServiceName) {
    case 'airtime':
      return { operation: 'buyAirtime', input: { network: r.network ?? '', phone: r.recipient, amount: toNaira(value), ...ported } };
    case 'data':
      return { operation: 'buyData', input: { network: r.network ?? '', plan_id: r.plan_id ?? '', phone: r.recipient, amount, ...ported } };
    case 'cable':
      return {
        operation: 'subscribeCable',
        input: { identifier: r.product ?? '', iuc: r.recipient, plan_id: r.plan_id ?? '', amount, phone: r.phone ?? '' },
      };
    case 'electricity':
      return {
        operation: 'buyElectricity',
        input: { plan: r.product ?? '', meter: r.recipient, type: r.meter_type ?? 'prepaid', amount: toNaira(value), phone: r.phone ?? '' },
      };
    case 'betting':
      return { operation: 'fundBet', input: { betting_company: r.product ?? '', customer_id: r.recipient, amount: toNaira(value) } };
    case 'exam':
      return {
        operation: 'buyEducationPin',
        input: {
          exam: r.product ?? '',
          quantity: r.quantity ?? 1,
          phone: r.phone ?? r.recipient,
          amount,
          ...(r.profile_id ? { profile_id: r.profile_id } : {}),
        },
      };
  }
}

/** docs/design.md §12 transaction shape; the request id and provider payloads stay inside. */
export function toTransaction(r: VtuRow) {
  const d = r.details ?? {};
  const { value, fee } = feeSplit(r.service as ServiceName, BigInt(r.amount), BigInt(r.markup));
  return {
    id: r.id,
    reference: r.reference,
    service: r.service,
    status: r.status,
    amount: toNaira(r.amount),
    value: toNaira(value),
    fee: toNaira(fee),
    recipient: r.recipient,
    ...(r.network ? { network: r.network } : {}),
    ...(r.plan_id ? { planId: r.plan_id } : {}),
    ...(r.product ? { product: r.product } : {}),
    ...(r.meter_type ? { meterType: r.meter_type } : {}),
    ...(r.quantity ? { quantity: r.quantity } : {}),
    ...(r.phone ? { phone: r.phone } : {}),
    provider: r.provider,
    ported: r.ported,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
    ...(d.token ? { token: String(d.token) } : {}),
    ...(d.units ? { units: String(d.units) } : {}),
    ...(Array.isArray(d.pins) ? { pins: d.pins as { pin: string; serial?: string }[] } : {}),
    ...(d.customerName ? { customerName: String(d.customerName) } : {}),
    ...(r.failure_reason ? { failureReason: r.failure_reason } : {}),
    repeat: repeatOf(r, value),
  };
}

export interface Prepared {
  service: ServiceName;
  recipient: string;
  network?: string;
  planId?: string;
  product?: string;
  meterType?: 'prepaid' | 'postpaid';
  quantity?: number;
  phone?: string;
  profileId?: string;
  ported: boolean;
  provider: ProviderId;
  wholesale: bigint;
  markup: bigint;
  retail: bigint;
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
