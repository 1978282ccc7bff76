import type { Outcome, ProviderId, PurchaseRequest, VtuService as ServiceName } from '../../providers/vtu/types.js';
import type { VtuProviderDeps } from './deps.js';
import { kindNamed } from './kinds/index.js';
import type { VtuRow } from './repository.js';

/** The request for a row at its current provider: the shared fields, then the kind's (null: not sold there). */
export async function requestFor({ pricing }: VtuProviderDeps, row: VtuRow): Promise<PurchaseRequest | null> {
  const base: PurchaseRequest = {
    requestId: row.request_id,
    service: row.service as ServiceName,
    recipient: row.recipient,
    wholesale: BigInt(row.wholesale),
    network: row.network ?? undefined,
    product: row.product ?? undefined,
    meterType: (row.meter_type as 'prepaid' | 'postpaid' | null) ?? undefined,
    quantity: row.quantity ?? undefined,
    phone: row.phone ?? undefined,
    profileId: row.profile_id ?? undefined,
    ...(row.inputs ? { inputs: row.inputs } : {}),
  };
  const kind = kindNamed(row.service);
  return kind.request ? kind.request(pricing.context(kind.name), row, base) : base;
}

/** Wholesale at the next provider for a fallback (the kind's price there), or null when it does not sell the same product. */
export async function wholesaleAt({ pricing }: VtuProviderDeps, row: VtuRow, provider: ProviderId): Promise<bigint | null> {
  const kind = kindNamed(row.service);
  try {
    return kind.wholesaleAt ? await kind.wholesaleAt(pricing.context(kind.name), row, provider) : BigInt(row.wholesale);
  } catch {
    return null;
  }
}

/** The provider's answer to a purchase, through the kind's adapter there (none: the provider does not sell it). */
export async function purchaseAt({ pricing }: VtuProviderDeps, row: VtuRow, provider: ProviderId, req: PurchaseRequest): Promise<Outcome> {
  const adapter = pricing.adapterAt(row.service, provider);
  if (!adapter) return { status: 'failed', message: `provider ${provider} does not sell ${row.service}` };
  return adapter.purchase(req);
}

/** A requery of a row, by the kind's adapter when it has its own, else the provider's (by our request id). */
export async function requery({ pricing, providers }: VtuProviderDeps, row: VtuRow): Promise<Outcome> {
  const provider = row.provider as ProviderId;
  const own = pricing.adapterAt(row.service, provider)?.requery;
  return own ? own(row.request_id) : providers[provider].requery(row.request_id);
}

/** The next provider of the row's kind (routed on its network) not tried yet, or null. */
export async function nextProvider({ pricing }: VtuProviderDeps, row: VtuRow): Promise<ProviderId | null> {
  const r = await pricing.route(row.service, row.network ?? undefined).catch(() => [] as ProviderId[]);
  const i = r.indexOf(row.provider as ProviderId);
  const next = r.slice(i + 1).find((p) => !row.providers_tried.includes(p));
  return next ?? null;
}
