import { z } from 'zod';
import { AppError } from '../../../../kernel/errors.js';
import { naira, toNaira } from '../../../../kernel/money.js';
import { uuidInput } from '../../../../kernel/inputs.js';
import type { ProviderId } from '../../../../providers/vtu/types.js';
import { needIssues, unknownProduct } from '../helpers.js';
import { kindOperation, type KindContext, type KindEnv, type ServiceKind } from '../kind.js';
import type { VtuRow } from '../../repository.js';
import { esimAdapterC, type EsimAdapter, type EsimDetails, type EsimPlanEntry } from './adapter.js';
import { buyEsimInput, destinationInput, topUpEsimInput, type EsimInput } from './inputs.js';
import { names } from './names.js';

/** The plans of every destination at `provider` (one cached list). */
async function plansAt(ctx: KindContext, provider: ProviderId) {
  return (await ctx.catalogue(provider, 'esim_plans')) as EsimPlanEntry[];
}
async function planAt(ctx: KindContext, provider: ProviderId, planId: string) {
  return (await plansAt(ctx, provider)).find((p) => p.code === planId && p.price !== null);
}

/** An eSIM purchase's own inputs, kept on the row (vtu_transactions.inputs). */
interface EsimRowInputs {
  plan_id: string;
  destination: string;
  dataMb: number;
  validityDays: number;
  /** A top-up: the eSIM transaction it tops up and its ICCID (also the row's recipient). */
  topup?: { esimId: string; iccid: string };
}
const inputsOf = (r: VtuRow) => (r.inputs ?? {}) as Partial<EsimRowInputs>;

/** The eSIM a transaction issued (or topped up): shown once delivered. */
function esimView(r: VtuRow) {
  const d = (r.details ?? {}) as EsimDetails;
  const i = inputsOf(r);
  const iccid = d.iccid ?? i.topup?.iccid;
  if (!iccid) return {};
  return {
    esim: {
      iccid,
      ...(d.activationCode && !i.topup ? { activationCode: d.activationCode, smdpAddress: d.smdpAddress, matchingId: d.matchingId } : {}),
      destination: i.destination ?? d.region ?? '',
      dataMb: i.dataMb ?? d.dataMb ?? 0,
      validityDays: i.validityDays ?? d.validityDays ?? 0,
      topup: Boolean(i.topup),
    },
  };
}

const esimViewField = z
  .object({
    iccid: z.string(),
    activationCode: z
      .string()
      .optional()
      .meta({ description: 'LPA activation code (LPA:1$<SM-DP+ address>$<matching id>): the QR code to scan' }),
    smdpAddress: z.string().optional(),
    matchingId: z.string().optional(),
    destination: z.string(),
    dataMb: z.number(),
    validityDays: z.number(),
    topup: z.boolean(),
  })
  .optional()
  .meta({ description: 'travel eSIM: the eSIM issued (or topped up), once delivered' });

/**
 * The caller's delivered eSIM transaction `id` (404 for anything else: another customer's, not an eSIM, not issued).
 * Ownership is checked before any money moves.
 */
async function ownEsim(env: KindEnv, id: string) {
  const row = await env.vtu.ownRow(env.user.id, id);
  const iccid = (row?.details as EsimDetails | null)?.iccid;
  if (!row || row.service !== 'esim' || row.status !== 'success' || !iccid || inputsOf(row).topup)
    throw new AppError('NOT_FOUND', 'eSIM not found');
  return { row, iccid };
}

const planOutput = z.object({
  plan_id: z.string(),
  destination: z.string(),
  name: z.string(),
  dataMb: z.number(),
  validityDays: z.number(),
  price: naira,
});

/**
 * Travel eSIMs (provider C): plans by destination (country or region) with data, validity and price; a purchase
 * issues an eSIM (ICCID and LPA activation code, shown as a QR code); the buyer may top up an eSIM of theirs with a
 * plan of its destination and look up its usage. The plan's retail price is the price (no fee line). A provider
 * failure before issuing refunds like any purchase.
 */
export const esimKind: ServiceKind<EsimInput, EsimAdapter> = {
  name: 'esim',
  label: 'travel eSIM',
  names,
  feeOnTop: false,
  defaultRouting: ['c'],
  purchase: {
    name: 'buyEsim',
    purpose: 'buy a travel eSIM (PIN required): the transaction carries the ICCID and the activation code (QR) once issued',
    input: buyEsimInput,
    errors: ['PRICE_CHANGED'],
  },
  operations: [
    kindOperation({
      name: 'listEsimDestinations',
      method: 'GET',
      catalogue: true,
      purpose: 'countries and regions travel eSIMs are sold for',
      input: z.object({}),
      output: z.object({ items: z.array(z.object({ id: z.string(), name: z.string(), kind: z.enum(['country', 'region']) })) }),
      errors: ['UPSTREAM_ERROR'],
      handler: async (_i, { kind }) => ({
        items: (await kind.catalogue((await kind.route())[0], 'esim_regions')).map((r) => ({
          id: r.code,
          name: r.name,
          kind: r.planType === 'region' ? ('region' as const) : ('country' as const),
        })),
      }),
    }),
    kindOperation({
      name: 'listEsimPlans',
      method: 'GET',
      catalogue: true,
      purpose: 'travel eSIM plans for a destination: data, validity and retail price',
      input: z.object({ destination: destinationInput }),
      output: z.object({ items: z.array(planOutput) }),
      errors: ['UPSTREAM_ERROR'],
      handler: async (i, { kind }) => {
        const provider = (await kind.route())[0];
        const plans = (await plansAt(kind, provider)).filter((p) => p.region === i.destination && p.price !== null);
        return {
          items: (await kind.retailList(provider, plans)).map(({ e, retail }) => {
            const p = e as EsimPlanEntry;
            return {
              plan_id: p.code,
              destination: p.region,
              name: p.name,
              dataMb: p.dataMb,
              validityDays: p.validityDays,
              price: toNaira(retail!),
            };
          }),
        };
      },
    }),
    kindOperation({
      name: 'topUpEsim',
      method: 'POST',
      purpose: "add a plan of its destination to one of the caller's eSIMs (PIN required); esim_id is the eSIM's transaction id",
      gates: { money: true, pin: true, kycTier: 1 },
      rateLimit: 'money',
      input: topUpEsimInput,
      // The Transaction (view.ts) cannot be imported by a kind (view.ts reads the kinds' list): its core fields, the rest kept.
      output: z.object({
        transaction: z.looseObject({
          id: z.string(),
          reference: z.string(),
          service: z.string(),
          status: z.enum(['processing', 'success', 'failed']),
          amount: naira,
        }),
      }),
      errors: [
        'NOT_FOUND',
        'PRICE_CHANGED',
        'INVALID_PIN',
        'PIN_NOT_SET',
        'PIN_LOCKED',
        'KYC_TIER_REQUIRED',
        'INSUFFICIENT_FUNDS',
        'LIMIT_EXCEEDED',
        'UPSTREAM_ERROR',
      ],
      handler: async (i, env) => {
        const { row, iccid } = await ownEsim(env, i.esim_id);
        const transaction = (await env.vtu.purchase(env.user, 'esim', {
          plan_id: i.plan_id,
          amount: i.amount,
          phone: row.phone ?? '',
          topup: { esimId: row.id, iccid, destination: inputsOf(row).destination ?? '' },
        })) as { id: string; reference: string; service: string; status: 'processing' | 'success' | 'failed'; amount: number };
        return { transaction };
      },
    }),
    kindOperation({
      name: 'getMyEsimUsage',
      method: 'POST',
      // Each call asks the provider: the strict rate class, like airtime-to-cash's customer requery.
      rateLimit: 'strict',
      purpose: "status and data used of one of the caller's eSIMs (id: the eSIM's transaction id), from the provider",
      input: z.object({ id: uuidInput('id') }),
      output: z.object({
        iccid: z.string(),
        status: z.enum(['not_installed', 'active', 'depleted', 'expired']),
        dataTotalMb: z.number(),
        dataUsedMb: z.number(),
        expiresAt: z.string(),
      }),
      errors: ['NOT_FOUND', 'UPSTREAM_ERROR'],
      handler: async (i, env) => {
        const { row, iccid } = await ownEsim(env, i.id);
        const usage = await env.kind.upstream(() => env.kind.adapter<EsimAdapter>(row.provider as ProviderId).usage(iccid));
        if (!usage) throw new AppError('NOT_FOUND', 'The provider has no record of this eSIM');
        return usage;
      },
    }),
  ],

  async prepare(ctx, i) {
    const provider = (await ctx.route())[0];
    const plan = await planAt(ctx, provider, i.plan_id);
    if (!plan) throw unknownProduct('plan_id', `eSIM plan ${i.plan_id} is not offered; see listEsimPlans`, 'unknown eSIM plan');
    if (i.destination && i.destination !== plan.region)
      throw unknownProduct(
        'destination',
        `eSIM plan ${plan.code} is not for ${i.destination}; see listEsimPlans {destination: ${i.destination}}`,
        "not this plan's destination",
      );
    const topup = i.topup;
    if (topup && topup.destination !== plan.region)
      throw unknownProduct(
        'plan_id',
        `plan ${plan.code} is not for this eSIM's destination (${topup.destination})`,
        "not a plan of this eSIM's destination",
      );
    const p = await ctx.priced(provider, plan.price!, plan);
    ctx.assertPrice(i.amount, p.retail, plan.name);
    const inputs: EsimRowInputs = {
      plan_id: plan.code,
      destination: plan.region,
      dataMb: plan.dataMb,
      validityDays: plan.validityDays,
      ...(topup ? { topup: { esimId: topup.esimId, iccid: topup.iccid } } : {}),
    };
    return {
      service: 'esim',
      recipient: topup ? topup.iccid : i.phone,
      planId: plan.code,
      // The receipt's plan line is the row's product.
      product: plan.code,
      phone: i.phone || undefined,
      inputs: inputs as unknown as Record<string, unknown>,
      ported: false,
      provider,
      ...p,
    };
  },
  async quote(ctx, i) {
    const provider = (await ctx.route())[0];
    const plan = await planAt(ctx, provider, i.plan_id!);
    if (!plan) throw unknownProduct('plan_id', 'This eSIM plan is no longer offered; choose another');
    return { name: plan.name, ...(await ctx.priced(provider, plan.price!, plan)) };
  },
  quoteIssues: (v) => needIssues(v, [['plan_id', 'Choose an eSIM plan']]),
  request: async (_ctx, row, base) => {
    const i = inputsOf(row);
    return { ...base, variation: i.plan_id ?? row.plan_id ?? undefined, inputs: { topup: Boolean(i.topup) } };
  },
  async wholesaleAt(ctx, row, provider) {
    return (await planAt(ctx, provider, inputsOf(row).plan_id ?? ''))?.price ?? null;
  },
  view: esimView,
  viewFields: { esim: esimViewField },
  // "Buy again" keeps the destination with the plan: the app's eSIM form lists a destination's plans, so it pre-fills
  // both; buyEsim checks it against the plan. A top-up's is another top-up of the same eSIM (topUpEsim: its esim_id).
  repeatVia: { operation: 'topUpEsim', rows: (r) => Boolean(inputsOf(r).topup) },
  repeat: (r): Record<string, string | number | boolean> => {
    const { destination, plan_id, topup } = inputsOf(r);
    if (topup) return { esim_id: topup.esimId, plan_id: plan_id ?? r.plan_id ?? '', amount: toNaira(r.amount) };
    return {
      ...(destination ? { destination } : {}),
      plan_id: plan_id ?? r.plan_id ?? '',
      phone: r.phone ?? '',
      amount: toNaira(r.amount),
    };
  },
  deliveredNote: (r, out) => {
    const iccid = (out.details as EsimDetails | undefined)?.iccid;
    if (inputsOf(r).topup) return `Your eSIM ${iccid ?? ''} has more data now.`;
    return 'Open the purchase in the app to scan its QR code and install the eSIM.';
  },

  adapters: { c: esimAdapterC },
  simulator: () => import('./simulator.js').then((m) => m.esimSimulator),
};
