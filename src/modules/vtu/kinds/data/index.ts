import { z } from 'zod';
import { naira, toNaira } from '../../../../kernel/money.js';
import { NETWORKS } from '../../../../kernel/phone.js';
import type { ProviderId, VtuProvider } from '../../../../providers/vtu/types.js';
import { smeDataPlans, smeDataPurchase } from '../../../../providers/vtu/sme-data.js';
import { assertRecipientNetwork, NETWORK_NAMES } from '../../model.js';
import { networkInput } from '../common-inputs.js';
import { catalogueLists, needIssues, unknownProduct } from '../helpers.js';
import { kindOperation, type KindAdapter, type KindContext, type ServiceKind } from '../kind.js';
import { buyDataInput, type DataInput } from './inputs.js';
import { names } from './names.js';

/** Data plans priced at `provider` (keyed across providers: network-type-size-validity). */
async function plansAt(ctx: KindContext, provider: ProviderId) {
  return (await ctx.catalogue(provider, 'data_plans')).filter((p) => p.key && p.network && p.price !== null);
}
async function planAt(ctx: KindContext, provider: ProviderId, network: string, planKey: string) {
  return (await plansAt(ctx, provider)).find((p) => p.key === planKey && p.network === network);
}

/**
 * The retail plans (of a network, of a plan type) at each network's first provider (its routing may differ per
 * network): what buyData's plan_id and amount name.
 */
export async function dataPlans(ctx: KindContext, network?: string, planType?: string) {
  const lists = await Promise.all(
    (network ? [network] : NETWORKS).map(async (n) => {
      const provider = (await ctx.route(n))[0];
      const list = (await plansAt(ctx, provider)).filter((p) => p.network === n && (!planType || p.planType === planType.toUpperCase()));
      return ctx.retailList(provider, list);
    }),
  );
  return lists.flat().map(({ e, retail }) => ({
    plan_id: e.key!,
    network: e.network!,
    planType: e.planType!,
    name: e.name,
    validity: e.validity ?? '',
    price: toNaira(retail!),
  }));
}

const dataPlanOutput = z.object({
  plan_id: z.string(),
  network: z.string(),
  planType: z.string(),
  name: z.string(),
  validity: z.string(),
  price: naira,
});

/** Providers A and B speak the SME-data protocol. */
const smeData = (p: VtuProvider): KindAdapter => ({
  catalogue: catalogueLists(p, { data_plans: () => smeDataPlans(p) }),
  purchase: (req) => smeDataPurchase(p, req),
});

/**
 * Data bundles: a plan (its provider-independent key) for a phone on a network. The plan's retail price is the price
 * (no fee line). Routed A then B (spec rule 2): B sells the same plan key at its own wholesale.
 */
export const dataKind: ServiceKind<DataInput> = {
  name: 'data',
  label: 'data',
  names,
  feeOnTop: false,
  defaultRouting: ['a', 'b'],
  purchase: {
    name: 'buyData',
    purpose: 'purchase a data bundle',
    versioned: true,
    input: buyDataInput,
    errors: ['NETWORK_MISMATCH', 'PRICE_CHANGED'],
    precheck: (i) => assertRecipientNetwork(i.network, i.phone, i.ported),
  },
  operations: [
    kindOperation({
      name: 'listDataNetworks',
      method: 'GET',
      versioned: true,
      catalogue: true,
      purpose: 'available data networks',
      input: z.object({}),
      output: z.object({ items: z.array(z.object({ id: z.string(), name: z.string() })) }),
      errors: ['UPSTREAM_ERROR'],
      handler: async (_i, { kind }) => {
        const plans = await plansAt(kind, (await kind.route())[0]);
        return { items: NETWORKS.filter((n) => plans.some((p) => p.network === n)).map((n) => ({ id: n, name: NETWORK_NAMES[n] })) };
      },
    }),
    kindOperation({
      name: 'listDataPlanTypes',
      method: 'GET',
      versioned: true,
      catalogue: true,
      purpose: 'plan categories (for example SME, CG, GIFTING) for a network',
      input: z.object({ network: networkInput }),
      output: z.object({ items: z.array(z.object({ planType: z.string(), network: z.string(), plans: z.number() })) }),
      errors: ['UPSTREAM_ERROR'],
      handler: async ({ network }, { kind }) => {
        const plans = await plansAt(kind, (await kind.route(network))[0]);
        const types = [...new Set(plans.filter((p) => p.network === network).map((p) => p.planType!))];
        return {
          items: types.map((t) => ({ planType: t, network, plans: plans.filter((p) => p.network === network && p.planType === t).length })),
        };
      },
    }),
    kindOperation({
      name: 'listDataPlans',
      method: 'GET',
      versioned: true,
      catalogue: true,
      purpose: 'all data plans for a network',
      input: z.object({ network: networkInput }),
      output: z.object({ items: z.array(dataPlanOutput) }),
      errors: ['UPSTREAM_ERROR'],
      handler: async (i, { kind }) => ({ items: await dataPlans(kind, i.network) }),
    }),
    kindOperation({
      name: 'listDataPlansForCategory',
      method: 'GET',
      versioned: true,
      catalogue: true,
      purpose: 'plans in one category',
      input: z.object({
        network: networkInput,
        planType: z.string({ error: 'planType is required' }).trim().min(1, 'planType is required').max(30, 'planType is too long'),
      }),
      output: z.object({ items: z.array(dataPlanOutput) }),
      errors: ['UPSTREAM_ERROR'],
      handler: async (i, { kind }) => ({ items: await dataPlans(kind, i.network, i.planType) }),
    }),
  ],

  async prepare(ctx, i) {
    assertRecipientNetwork(i.network, i.phone, i.ported);
    const provider = (await ctx.route(i.network))[0];
    const plan = await planAt(ctx, provider, i.network, i.plan_id);
    if (!plan)
      throw unknownProduct(
        'plan_id',
        `plan_id ${i.plan_id} is not a current ${NETWORK_NAMES[i.network]} data plan; list the plans again`,
        'unknown plan',
      );
    const p = await ctx.priced(provider, plan.price!, plan);
    ctx.assertPrice(i.amount, p.retail, `this plan`);
    return { service: 'data', recipient: i.phone, network: i.network, planId: i.plan_id, ported: Boolean(i.ported), provider, ...p };
  },
  async quote(ctx, i) {
    const provider = (await ctx.route(i.network))[0];
    const plan = await planAt(ctx, provider, i.network!, i.plan_id!);
    if (!plan) throw unknownProduct('plan_id', 'This data plan is no longer offered; choose another');
    return { name: plan.name, ...(await ctx.priced(provider, plan.price!, plan)) };
  },
  quoteIssues: (v) =>
    needIssues(v, [
      ['network', 'Choose the network'],
      ['plan_id', 'Choose a data plan'],
    ]),
  // The provider's own plan id for the row's plan key; none: that provider no longer sells it.
  async request(ctx, row, base) {
    const plan = await planAt(ctx, row.provider as ProviderId, row.network!, row.plan_id!).catch(() => undefined);
    return plan ? { ...base, variation: plan.code } : null;
  },
  async wholesaleAt(ctx, row, provider) {
    return (await planAt(ctx, provider, row.network!, row.plan_id!))?.price ?? null;
  },
  repeat: (r) => ({
    network: r.network ?? '',
    plan_id: r.plan_id ?? '',
    phone: r.recipient,
    amount: toNaira(r.amount),
    ...(r.ported ? { ported: true } : {}),
  }),

  adapters: { a: smeData, b: smeData },
};
