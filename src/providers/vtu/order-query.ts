import { koboOf, providerClient, type HttpProviderConfig } from './transport.js';
import {
  ProviderError,
  type CatalogueEntry,
  type DeliveryDetails,
  type Outcome,
  type Phase,
  type ProviderId,
  type PurchaseRequest,
  type VerifyResult,
  type VtuProvider,
} from './types.js';

/**
 * The order-and-query protocol (docs/design.md §11), used for betting and exam pins:
 * POST /api/v1/orders {reference, product, service_code, customer_id, amount, quantity, phone, profile_id}
 * answers ORDER_RECEIVED; completion is only known from GET /api/v1/orders/:reference
 * (ORDER_COMPLETED / ORDER_CANCELLED / ORDER_ONHOLD / ORDER_PROCESSING). After a received order the adapter
 * queries once at once, so instant orders settle in the same request; otherwise reconciliation does. Which product
 * and catalogue a kind uses is the kind's (src/modules/vtu/kinds/<kind>), through the calls exported here.
 */
export function orderOutcome(res: { status: number; body: any }, phase: Phase = 'purchase'): Outcome {
  const b = res.body;
  // Refused at the door (bad credentials): nothing was processed, a definite failure.
  if (res.status === 401 || res.status === 403)
    return phase === 'purchase'
      ? { status: 'failed', message: 'The provider refused our credentials' }
      : { status: 'unknown', message: 'query refused' };
  if (res.status >= 500 || !b || typeof b !== 'object') return { status: 'unknown', message: `provider answered HTTP ${res.status}` };
  const st = String(b.status ?? '');
  const message = typeof b.message === 'string' ? b.message : undefined;
  switch (st) {
    case 'ORDER_COMPLETED': {
      const d: DeliveryDetails = {};
      if (Array.isArray(b.result?.pins))
        d.pins = b.result.pins.map((p: any) => ({ pin: String(p.pin), ...(p.serial ? { serial: String(p.serial) } : {}) }));
      if (b.result?.customer_name) d.customerName = String(b.result.customer_name);
      if (b.order_id) d.providerReference = String(b.order_id);
      return { status: 'delivered', details: d, message };
    }
    case 'ORDER_CANCELLED':
      return { status: 'failed', message: message ?? 'Order cancelled' };
    case 'ORDER_REJECTED':
      if (phase === 'requery') return { status: 'unknown', message };
      return b.code === 'INSUFFICIENT_BALANCE'
        ? { status: 'low_float', message }
        : { status: 'failed', message: message ?? 'Order rejected' };
    case 'ORDER_NOT_FOUND':
      return { status: 'not_found', message };
    case 'ORDER_RECEIVED':
    case 'ORDER_ONHOLD':
    case 'ORDER_PROCESSING':
      return { status: 'pending', message };
    default:
      return { status: 'unknown', message: `unexpected status ${st || '(none)'}` };
  }
}

const queryOrder = (p: VtuProvider, reference: string) =>
  p.client.outcome(() => p.client.call('GET', `/api/v1/orders/${encodeURIComponent(reference)}`), orderOutcome, 'requery');

/** An order-query provider under the configured id (d in the default routing). */
export function createOrderQueryProvider(id: ProviderId, cfg: HttpProviderConfig): VtuProvider {
  const client = providerClient(id, cfg, () => ({ 'x-api-key': cfg.key }));
  const provider: VtuProvider = {
    id,
    client,
    requery: (requestId) => queryOrder(provider, requestId),
    async balance() {
      const b = await client.read('GET', '/api/v1/balance');
      const v = koboOf(b.balance);
      if (v === null) throw new ProviderError(id, `provider ${id}: balance missing`, 'malformed');
      return v;
    },
    async fund(amount, reference) {
      const b = await client.read('POST', '/api/v1/fund', { amount: Number(amount) / 100, reference });
      const v = koboOf(b.balance);
      if (v === null) throw new ProviderError(id, `provider ${id}: balance missing after funding`, 'malformed');
      return v;
    },
  };
  return provider;
}

/** A catalogue of items {code, name, price?} at `path` (/api/v1/catalogue/betting, /api/v1/catalogue/exams). */
export async function orderCatalogue(p: VtuProvider, path: string): Promise<CatalogueEntry[]> {
  const b = await p.client.read('GET', path);
  if (!Array.isArray(b.items)) throw new ProviderError(p.id, `provider ${p.id}: items missing`, 'malformed');
  return b.items.map((i: any) => ({
    code: String(i.code),
    name: String(i.name),
    price: i.price === undefined ? null : koboOf(i.price),
  }));
}

/** POST /api/v1/verify: the customer behind an account of a service. */
export async function orderVerify(
  p: VtuProvider,
  input: { service: string; service_code: string; customer_id: string },
): Promise<VerifyResult> {
  const b = await p.client.read('POST', '/api/v1/verify', input);
  if (b.status !== 'OK') return { found: false, message: String(b.message ?? 'customer not found') };
  return { found: true, customerName: String(b.customer_name) };
}

/**
 * POST /api/v1/orders for `product` (the kind's product name at D), then one query at once: an instant order settles
 * in the same request; a received order whose query fails or cannot find it yet is still pending, never a failure.
 */
export async function placeOrder(
  p: VtuProvider,
  product: string,
  req: PurchaseRequest,
  extra: Record<string, unknown> = {},
): Promise<Outcome> {
  const placed = await p.client.outcome(
    () =>
      p.client.call('POST', '/api/v1/orders', {
        reference: req.requestId,
        product,
        service_code: req.product,
        customer_id: req.recipient,
        amount: Number(req.wholesale) / 100,
        quantity: req.quantity ?? 1,
        phone: req.phone,
        ...(req.profileId ? { profile_id: req.profileId } : {}),
        ...extra,
      }),
    orderOutcome,
  );
  if (placed.status !== 'pending') return placed;
  const q = await queryOrder(p, req.requestId);
  return q.status === 'unknown' || q.status === 'not_found' ? { status: 'pending', message: placed.message } : q;
}
