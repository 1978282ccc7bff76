import { createHash } from 'node:crypto';
import { SimPlaced, SimResponse, type KindSimulator, type SimOrder, type SimulatorEnv } from '../simulator.js';

/**
 * The social kind's simulator (kinds/simulator.ts): provider D's social services (order-and-query protocol, docs/design.md §11): GET /api/v1/catalogue/social lists
 * services with a price per 1,000 and quantity bounds; POST /api/v1/orders {reference, product: social,
 * service_code, link, quantity, amount} places an order whose price is the rate times the quantity; its query
 * answers the start count and what remains. The link's last four digits choose the outcome like a recipient's;
 * "6464" completes part of the order (ORDER_PARTIAL) at once, "6262" after it ran a while: the provider gives the
 * undelivered part back to the float.
 */
export interface SocialService {
  code: string;
  name: string;
  platform: string;
  kind: string;
  /** Naira per 1,000. */
  rate: number;
  min: number;
  max: number;
}

export const SOCIAL_SERVICES: SocialService[] = [
  { code: 'ig-followers', name: 'Instagram followers', platform: 'instagram', kind: 'followers', rate: 2500, min: 100, max: 10_000 },
  { code: 'ig-likes', name: 'Instagram likes', platform: 'instagram', kind: 'likes', rate: 600, min: 50, max: 20_000 },
  { code: 'ig-views', name: 'Instagram reel views', platform: 'instagram', kind: 'views', rate: 120, min: 500, max: 500_000 },
  { code: 'tiktok-followers', name: 'TikTok followers', platform: 'tiktok', kind: 'followers', rate: 3000, min: 100, max: 10_000 },
  { code: 'tiktok-likes', name: 'TikTok likes', platform: 'tiktok', kind: 'likes', rate: 500, min: 50, max: 50_000 },
  { code: 'tiktok-views', name: 'TikTok views', platform: 'tiktok', kind: 'views', rate: 150, min: 1000, max: 1_000_000 },
  { code: 'x-followers', name: 'X (Twitter) followers', platform: 'x', kind: 'followers', rate: 4500, min: 100, max: 5000 },
  { code: 'youtube-views', name: 'YouTube views', platform: 'youtube', kind: 'views', rate: 2000, min: 500, max: 100_000 },
  { code: 'youtube-subscribers', name: 'YouTube subscribers', platform: 'youtube', kind: 'subscribers', rate: 9000, min: 100, max: 5000 },
  { code: 'facebook-page-likes', name: 'Facebook page likes', platform: 'facebook', kind: 'likes', rate: 3500, min: 100, max: 10_000 },
];

export const socialService = (code: unknown) => SOCIAL_SERVICES.find((s) => s.code === code);

/** The price of a quantity at a rate per 1,000, kobo, rounded up to the kobo. */
export const socialPrice = (rateNaira: number, quantity: number) => (BigInt(Math.round(rateNaira * 100)) * BigInt(quantity) + 999n) / 1000n;

/** The part of a price for the undelivered quantity, kobo, rounded down (what the provider gives back). */
export const undeliveredAmount = (amount: bigint, quantity: number, remains: number) => (amount * BigInt(remains)) / BigInt(quantity);

/** The link's follower/like count before the order (deterministic per link). */
export const startCountOf = (link: string) => 100 + (createHash('sha256').update(link).digest().readUInt32BE(0) % 9900);

/** A partial order delivers 60% (rounded down) and gives the rest back. */
export const partialRemains = (quantity: number) => quantity - Math.floor((quantity * 3) / 5);

/** The query answer's fields for a social order: start count and what remains (all of it while it runs). */
export function socialProgress(o: SimOrder) {
  const r = o.result ?? {};
  const quantity = Number(r.quantity ?? 0);
  const remains = o.status === 'pending' ? quantity : o.status === 'delivered' ? Number(r.remains ?? 0) : quantity;
  return {
    start_count: Number(r.start_count ?? 0),
    quantity,
    remains,
    ...(o.status === 'delivered' && remains > 0
      ? { refunded_amount: (Number(undeliveredAmount(BigInt(o.amount), quantity, remains)) / 100).toFixed(2) }
      : {}),
  };
}

/** A social order: the link is the recipient, the price is the service's rate times the quantity. */
async function orderSocial(b: Record<string, any>, env: SimulatorEnv) {
  const reference = typeof b.reference === 'string' ? b.reference : '';
  const link = typeof b.link === 'string' ? b.link : '';
  const quantity = Number(b.quantity);
  const service = socialService(b.service_code);
  if (!reference || reference.length > 80 || !/^https:\/\/\S{4,300}$/.test(link))
    return new SimResponse(400, { status: 'ORDER_REJECTED', message: 'reference and an https link are required' });
  if (!service) return new SimResponse(400, { status: 'ORDER_REJECTED', message: 'Unknown social service' });
  if (!Number.isInteger(quantity) || quantity < service.min || quantity > service.max)
    return new SimResponse(400, { status: 'ORDER_REJECTED', message: `quantity must be ${service.min}-${service.max}` });
  const amount = socialPrice(service.rate, quantity);
  const magic = env.magicOf(link);
  const remains = magic === 'partial' || magic === 'pending_partial' ? partialRemains(quantity) : 0;
  await env.arriveLate(link);
  const placed = await env.placeOrder({
    provider: 'd',
    requestId: reference,
    service: 'social',
    recipient: link,
    product: service.code,
    amount,
    quantity,
    result: { start_count: startCountOf(link), quantity, remains },
    charge: amount - undeliveredAmount(amount, quantity, remains),
  });
  return new SimPlaced(placed);
}

/** Provider D's part: GET /api/v1/catalogue/social, orders of product `social`, the progress in an order's query. */
export const socialSimulator: KindSimulator = {
  orders: {
    product: 'social',
    catalogues: { social: () => SOCIAL_SERVICES.map((s) => ({ ...s, rate: s.rate.toFixed(2) })) },
    order: orderSocial,
    progress: (o) => {
      const result = socialProgress(o);
      return { result, partial: result.remains > 0 };
    },
  },
};
