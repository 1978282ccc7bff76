import { koboOf } from '../../../../providers/vtu/transport.js';
import { orderOutcome } from '../../../../providers/vtu/order-query.js';
import {
  ProviderError,
  type CatalogueEntry,
  type DeliveryDetails,
  type Outcome,
  type Phase,
  type PurchaseRequest,
  type VtuProvider,
} from '../../../../providers/vtu/types.js';
import type { KindAdapter } from '../kind.js';

/**
 * Social services at provider D (order-and-query protocol, docs/design.md §11): GET /api/v1/catalogue/social lists
 * {code, name, platform, kind, rate (naira per 1,000), min, max}; POST /api/v1/orders {reference, product: social,
 * service_code, link, quantity, amount}; GET /api/v1/orders/:reference answers ORDER_PROCESSING / ORDER_COMPLETED /
 * ORDER_PARTIAL / ORDER_CANCELLED with `result: {start_count, quantity, remains}`. A partial order is delivered
 * with `remains` > 0: the undelivered part is refunded when it settles.
 */
export interface SocialServiceEntry extends CatalogueEntry {
  platform: string;
  kind: string;
  /** Wholesale per 1,000, kobo (a number: catalogue entries are cached as JSON). */
  rate: number;
  min: number;
  max: number;
}

/** Progress of an order, kept in the transaction's details. */
export interface SocialDetails extends DeliveryDetails {
  startCount?: number;
  quantity?: number;
  remains?: number;
}

function progressOf(b: any): SocialDetails {
  const r = b?.result;
  const d: SocialDetails = {};
  if (r && typeof r === 'object') {
    if (Number.isInteger(Number(r.start_count))) d.startCount = Number(r.start_count);
    if (Number.isInteger(Number(r.quantity))) d.quantity = Number(r.quantity);
    if (Number.isInteger(Number(r.remains))) d.remains = Number(r.remains);
  }
  if (b?.order_id) d.providerReference = String(b.order_id);
  return d;
}

/**
 * D's answers for social orders: ORDER_PARTIAL is a delivery of part of the quantity (its `remains` must be a whole
 * number, else we cannot tell what to refund and ask again); progress rides on pending answers too.
 */
export function socialOutcome(res: { status: number; body: any }, phase: Phase = 'purchase'): Outcome {
  const b = res.body;
  if (res.status < 500 && b && typeof b === 'object' && b.status === 'ORDER_PARTIAL') {
    const d = progressOf(b);
    if (d.remains === undefined || d.remains < 0) return { status: 'unknown', message: 'partial order without a valid remains' };
    return { status: 'delivered', details: d, message: typeof b.message === 'string' ? b.message : undefined };
  }
  const out = orderOutcome(res, phase);
  if (out.status === 'delivered') {
    const progress = progressOf(b);
    const details: SocialDetails = { ...out.details, ...progress, remains: progress.remains ?? 0 };
    return { ...out, details };
  }
  if (out.status === 'pending' && b?.result) return { ...out, details: progressOf(b) };
  return out;
}

export interface SocialAdapter extends KindAdapter {
  /** The order's state now (progress while it runs). */
  requery(requestId: string): Promise<Outcome>;
}

export function socialAdapterD(p: VtuProvider): SocialAdapter {
  const c = p.client;
  const query = (reference: string) =>
    c.outcome(() => c.call('GET', `/api/v1/orders/${encodeURIComponent(reference)}`), socialOutcome, 'requery');
  return {
    async catalogue(list) {
      if (list !== 'social_services') throw new ProviderError(p.id, `provider ${p.id} has no ${list} list`, 'refused');
      const b = await c.read('GET', '/api/v1/catalogue/social');
      if (!Array.isArray(b.items)) throw new ProviderError(p.id, `provider ${p.id}: social services missing`, 'malformed');
      return b.items.map((i: any): SocialServiceEntry => ({
        code: String(i.code),
        name: String(i.name),
        price: null,
        platform: String(i.platform),
        kind: String(i.kind),
        rate: Number(koboOf(i.rate) ?? 0n),
        min: Number(i.min),
        max: Number(i.max),
      }));
    },
    async purchase(req: PurchaseRequest) {
      const placed = await c.outcome(
        () =>
          c.call('POST', '/api/v1/orders', {
            reference: req.requestId,
            product: 'social',
            service_code: req.product,
            link: req.recipient,
            quantity: req.quantity,
            amount: Number(req.wholesale) / 100,
          }),
        socialOutcome,
      );
      if (placed.status !== 'pending') return placed;
      const q = await query(req.requestId);
      // The order was received: a query that fails or cannot find it yet is still pending, never a failure.
      return q.status === 'unknown' || q.status === 'not_found' ? { status: 'pending', message: placed.message } : q;
    },
    requery: query,
  };
}
