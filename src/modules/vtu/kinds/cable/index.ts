import { z } from 'zod';
import { naira, toNaira } from '../../../../kernel/money.js';
import { AppError } from '../../../../kernel/errors.js';
import { koboOf } from '../../../../providers/vtu/transport.js';
import { vtpassPay, vtpassServices, vtpassVariations, vtpassVerify } from '../../../../providers/vtu/vtpass.js';
import type { ProviderId } from '../../../../providers/vtu/types.js';
import { catalogueLists, needIssues, unknownProduct, verifyAt } from '../helpers.js';
import { kindOperation, type KindContext, type ServiceKind } from '../kind.js';
import { cableInput, iucInput, subscribeCableInput, type CableInput } from './inputs.js';
import { names } from './names.js';

async function planAt(ctx: KindContext, provider: ProviderId, identifier: string, planId: string) {
  return (await ctx.catalogue(provider, 'cable_plans', identifier)).find((e) => e.code === planId);
}

/** Cable TV: a provider's plan (its variation code) for a smartcard; the plan's retail price is the price. */
export const cableKind: ServiceKind<CableInput> = {
  name: 'cable',
  label: 'cable TV subscription',
  names,
  feeOnTop: false,
  defaultRouting: ['c'],
  purchase: {
    name: 'subscribeCable',
    purpose: 'pay a cable subscription (PIN required)',
    versioned: true,
    input: subscribeCableInput,
    errors: ['PRICE_CHANGED'],
  },
  operations: [
    kindOperation({
      name: 'listCableProviders',
      method: 'GET',
      versioned: true,
      catalogue: true,
      purpose: 'cable TV providers',
      input: z.object({}),
      output: z.object({ items: z.array(z.object({ id: z.string(), name: z.string() })) }),
      errors: ['UPSTREAM_ERROR'],
      handler: async (_i, { kind }) => ({
        items: (await kind.catalogue((await kind.route())[0], 'cable_providers')).map((c) => ({ id: c.code, name: c.name })),
      }),
    }),
    kindOperation({
      name: 'listCablePlans',
      method: 'GET',
      versioned: true,
      catalogue: true,
      purpose: 'cable plans for a provider',
      input: z.object({ identifier: cableInput }),
      output: z.object({ items: z.array(z.object({ plan_id: z.string(), identifier: z.string(), name: z.string(), price: naira })) }),
      errors: ['UPSTREAM_ERROR'],
      handler: async ({ identifier }, { kind }) => {
        const provider = (await kind.route())[0];
        const priced = await kind.retailList(provider, await kind.catalogue(provider, 'cable_plans', identifier));
        return {
          items: priced
            .filter((x) => x.retail !== null)
            .map(({ e, retail }) => ({ plan_id: e.code, identifier, name: e.name, price: toNaira(retail!) })),
        };
      },
    }),
    kindOperation({
      name: 'verifyCableIUC',
      method: 'POST',
      versioned: true,
      purpose: 'look up cable subscriber name',
      input: z.object({ iuc: iucInput, identifier: cableInput }),
      output: z.object({ customerName: z.string(), iuc: z.string(), identifier: z.string() }),
      errors: ['NOT_FOUND', 'UPSTREAM_ERROR'],
      handler: async (input, { kind }) => {
        const r = await verifyAt(kind, { account: input.iuc, product: input.identifier });
        if (!r.found)
          throw new AppError(
            'NOT_FOUND',
            `Smartcard ${input.iuc} was not found on ${input.identifier}${r.message ? `: ${r.message}` : ''}`,
          );
        return { customerName: r.customerName!, iuc: input.iuc, identifier: input.identifier };
      },
    }),
  ],

  async prepare(ctx, i) {
    const provider = (await ctx.route())[0];
    const plan = await planAt(ctx, provider, i.identifier, i.plan_id);
    if (!plan || plan.price === null)
      throw unknownProduct('plan_id', `plan_id ${i.plan_id} is not a current ${i.identifier} plan; list the plans again`, 'unknown plan');
    const p = await ctx.priced(provider, plan.price, plan);
    ctx.assertPrice(i.amount, p.retail, `${plan.name}`);
    return { service: 'cable', recipient: i.iuc, planId: i.plan_id, product: i.identifier, phone: i.phone, ported: false, provider, ...p };
  },
  async quote(ctx, i) {
    const provider = (await ctx.route())[0];
    const plan = await planAt(ctx, provider, i.identifier!, i.plan_id!);
    if (!plan || plan.price === null) throw unknownProduct('plan_id', 'This TV plan is no longer offered; choose another');
    return { name: plan.name, ...(await ctx.priced(provider, plan.price, plan)) };
  },
  quoteIssues: (v) =>
    needIssues(v, [
      ['identifier', 'Choose the cable provider'],
      ['plan_id', 'Choose a TV plan'],
    ]),
  request: async (_ctx, row, base) => ({ ...base, variation: row.plan_id ?? undefined }),
  async wholesaleAt(ctx, row, provider) {
    return (await planAt(ctx, provider, row.product!, row.plan_id!))?.price ?? null;
  },
  repeat: (r) => ({
    identifier: r.product ?? '',
    iuc: r.recipient,
    plan_id: r.plan_id ?? '',
    amount: toNaira(r.amount),
    phone: r.phone ?? '',
  }),

  adapters: {
    c: (p) => ({
      catalogue: catalogueLists(p, {
        cable_providers: async () =>
          (await vtpassServices(p, 'tv-subscription')).map((s) => ({ code: String(s.serviceID), name: String(s.name), price: null })),
        cable_plans: async (serviceID) =>
          (await vtpassVariations(p, serviceID ?? '')).map((v: any) => ({
            code: String(v.variation_code),
            name: String(v.name),
            price: koboOf(v.variation_amount),
          })),
      }),
      verify: (input) => vtpassVerify(p, { billersCode: input.account, serviceID: input.product, type: input.meterType }),
      purchase: (req) => vtpassPay(p, req, { serviceID: req.product!, variation_code: req.variation, subscription_type: 'change' }),
    }),
  },
};
