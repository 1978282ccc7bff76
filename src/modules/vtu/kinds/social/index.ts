import { z } from 'zod';
import { AppError } from '../../../../kernel/errors.js';
import { formatNaira, naira, toNaira } from '../../../../kernel/money.js';
import { uuidInput } from '../../../../kernel/inputs.js';
import type { Outcome, ProviderId } from '../../../../providers/vtu/types.js';
import { needIssues, unknownProduct } from '../helpers.js';
import { kindOperation, type KindContext, type ServiceKind } from '../kind.js';
import type { VtuRow } from '../../repository.js';
import { socialAdapterD, type SocialAdapter, type SocialDetails, type SocialServiceEntry } from './adapter.js';
import { orderSocialInput, platformInput, type SocialInput } from './inputs.js';
import { names } from './names.js';

async function servicesAt(ctx: KindContext, provider: ProviderId) {
  return (await ctx.catalogue(provider, 'social_services')) as SocialServiceEntry[];
}
async function serviceAt(ctx: KindContext, provider: ProviderId, id: string) {
  return (await servicesAt(ctx, provider)).find((s) => s.code === id);
}

/** The wholesale of a quantity at a rate per 1,000 (kobo), rounded up to the kobo as the provider charges it. */
export const wholesaleOf = (rate: number, quantity: number) => (BigInt(rate) * BigInt(quantity) + 999n) / 1000n;

/**
 * The part of a purchase given back when the provider delivered only part of it: the wholesale and markup of the
 * undelivered quantity, each rounded down (the provider gives back its part of the wholesale the same way), so
 * the refund never exceeds what was paid. Null when everything was delivered.
 */
export function undeliveredPart(row: { quantity: number | null; wholesale: string | bigint; markup: string | bigint }, remains: number) {
  const q = row.quantity ?? 0;
  if (!(remains > 0) || q <= 0) return null;
  const r = BigInt(Math.min(remains, q));
  return { wholesale: (BigInt(row.wholesale) * r) / BigInt(q), markup: (BigInt(row.markup) * r) / BigInt(q) };
}

const remainsOf = (out: Outcome) => Number((out.details as SocialDetails | undefined)?.remains ?? 0);

/** The order's progress and any refund of its undelivered part, from the delivery and the row. */
function socialView(r: VtuRow) {
  const d = (r.details ?? {}) as SocialDetails;
  const quantity = r.quantity ?? d.quantity ?? 0;
  const remains = r.status === 'success' ? (d.remains ?? 0) : r.status === 'processing' ? (d.remains ?? quantity) : quantity;
  const part = r.status === 'success' ? undeliveredPart(r, remains) : null;
  return {
    social: {
      ...(d.startCount !== undefined ? { startCount: d.startCount } : {}),
      quantity,
      delivered: r.status === 'success' ? quantity - remains : 0,
      remains,
      ...(part ? { refunded: toNaira(part.wholesale + part.markup) } : {}),
    },
  };
}

const socialViewField = z
  .object({
    startCount: z.number().optional().meta({ description: "the link's count when the provider started" }),
    quantity: z.number(),
    delivered: z.number(),
    remains: z.number(),
    refunded: naira.optional().meta({ description: 'what was given back for the undelivered part (a partly completed order)' }),
  })
  .optional()
  .meta({ description: "social services: the order's progress" });

const serviceOutput = z.object({
  service_id: z.string(),
  platform: z.string(),
  kind: z.string(),
  name: z.string(),
  pricePer1000: naira.meta({ description: 'retail price of 1,000 (quotePurchase prices any quantity)' }),
  min: z.number(),
  max: z.number(),
});

/**
 * Social services (provider D): followers, likes, views... by platform, priced per 1,000 with a minimum and maximum
 * quantity. An order names a public link and a quantity; the provider reports the start count and what remains. A
 * partly completed order is a delivery: the undelivered part is refunded with its settlement (once, in its
 * transaction, ledger reference vtu_partial_<reference>).
 */
export const socialKind: ServiceKind<SocialInput, SocialAdapter> = {
  name: 'social',
  label: 'social media order',
  names,
  feeOnTop: false,
  defaultRouting: ['d'],
  purchase: {
    name: 'orderSocial',
    purpose: "order a social service for a link (PIN required); amount = the quantity's price (quotePurchase)",
    input: orderSocialInput,
    errors: ['PRICE_CHANGED'],
  },
  operations: [
    kindOperation({
      name: 'listSocialServices',
      method: 'GET',
      catalogue: true,
      purpose: 'social services (platform, kind, retail price per 1,000, minimum and maximum quantity)',
      input: z.object({ platform: platformInput.optional() }),
      output: z.object({ items: z.array(serviceOutput) }),
      errors: ['UPSTREAM_ERROR'],
      handler: async (i, { kind }) => {
        const provider = (await kind.route())[0];
        const list = (await servicesAt(kind, provider)).filter((s) => !i.platform || s.platform === i.platform);
        const items = [];
        for (const s of list) {
          const p = await kind.priced(provider, BigInt(s.rate));
          items.push({
            service_id: s.code,
            platform: s.platform,
            kind: s.kind,
            name: s.name,
            pricePer1000: toNaira(p.retail),
            min: s.min,
            max: s.max,
          });
        }
        return { items };
      },
    }),
    kindOperation({
      name: 'getMySocialOrderProgress',
      method: 'POST',
      // Each call asks the provider: the strict rate class, like airtime-to-cash's customer requery.
      rateLimit: 'strict',
      purpose: "the provider's progress of one of the caller's social orders now (start count, remains); settling stays reconciliation's",
      input: z.object({ id: uuidInput('id') }),
      output: z.object({
        status: z.enum(['processing', 'success', 'failed']),
        providerStatus: z.string(),
        startCount: z.number().optional(),
        quantity: z.number(),
        remains: z.number(),
      }),
      errors: ['NOT_FOUND', 'UPSTREAM_ERROR'],
      handler: async (i, env) => {
        const row = await env.vtu.ownRow(env.user.id, i.id);
        if (!row || row.service !== 'social') throw new AppError('NOT_FOUND', 'Social order not found');
        const view = socialView(row).social;
        if (row.status !== 'processing')
          return { status: row.status, providerStatus: row.status === 'success' ? 'delivered' : 'failed', ...view };
        const out = await env.kind.adapter<SocialAdapter>(row.provider as ProviderId).requery(row.request_id);
        const d = (out.details ?? {}) as SocialDetails;
        return {
          status: row.status,
          providerStatus: out.status,
          ...(d.startCount !== undefined
            ? { startCount: d.startCount }
            : view.startCount !== undefined
              ? { startCount: view.startCount }
              : {}),
          quantity: view.quantity,
          remains: d.remains ?? view.remains,
        };
      },
    }),
  ],

  async prepare(ctx, i) {
    const provider = (await ctx.route())[0];
    const s = await serviceAt(ctx, provider, i.service_id);
    if (!s)
      throw unknownProduct('service_id', `social service ${i.service_id} is not offered; see listSocialServices`, 'unknown social service');
    if (i.quantity < s.min || i.quantity > s.max)
      throw new AppError('VALIDATION_FAILED', `quantity for ${s.name} must be from ${s.min} to ${s.max}`, {
        issues: [{ path: 'quantity', message: `must be from ${s.min} to ${s.max}` }],
      });
    const p = await ctx.priced(provider, wholesaleOf(s.rate, i.quantity));
    ctx.assertPrice(i.amount, p.retail, `${i.quantity} ${s.name}`);
    return {
      service: 'social',
      recipient: i.link,
      product: s.code,
      quantity: i.quantity,
      inputs: { platform: s.platform, kind: s.kind },
      ported: false,
      provider,
      ...p,
    };
  },
  async quote(ctx, i) {
    const provider = (await ctx.route())[0];
    const s = await serviceAt(ctx, provider, i.plan_id!);
    if (!s) throw unknownProduct('plan_id', 'This social service is no longer offered; choose another');
    const q = i.quantity ?? s.min;
    if (q < s.min || q > s.max)
      throw new AppError('VALIDATION_FAILED', `quantity for ${s.name} must be from ${s.min} to ${s.max}`, {
        issues: [{ path: 'quantity', message: `must be from ${s.min} to ${s.max}` }],
      });
    return { name: s.name, ...(await ctx.priced(provider, wholesaleOf(s.rate, q))) };
  },
  quoteIssues: (v) =>
    needIssues(v, [
      ['plan_id', 'Choose a social service (plan_id: its service_id)'],
      ['quantity', 'Enter the quantity'],
    ]),
  async wholesaleAt(ctx, row, provider) {
    const s = await serviceAt(ctx, provider, row.product ?? '');
    return s ? wholesaleOf(s.rate, row.quantity ?? 0) : null;
  },
  partialRefund: (row, out) => undeliveredPart(row, remainsOf(out)),
  view: socialView,
  viewFields: { social: socialViewField },
  repeat: (r) => ({ service_id: r.product ?? '', link: r.recipient, quantity: r.quantity ?? 0, amount: toNaira(r.amount) }),
  deliveredNote: (row, out) => {
    const part = undeliveredPart(row, remainsOf(out));
    return part ? `${remainsOf(out)} could not be delivered: ${formatNaira(part.wholesale + part.markup)} is back in your wallet.` : '';
  },

  adapters: { d: socialAdapterD },
  simulator: () => import('./simulator.js').then((m) => m.socialSimulator),
};
