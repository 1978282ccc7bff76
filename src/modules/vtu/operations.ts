import { z } from 'zod';
import { defineOperation, pageInput, pageOutput, uuidInput } from '../../http/registry.js';
import type { ErrorCode } from '../../http/errors.js';
import { nairaAmount, toKobo } from '../../lib/money.js';
import { phoneInput } from '../identity/operations.js';
import { CATALOGUE_TTL_MS } from './catalogue.js';
import { assertRecipientNetwork } from './service.js';

/** Spec 4.5 (suffix BearerVTU, all 21 also at /api/v1) plus listEducationPins and the operator operations. */
const SUFFIX = 'BearerVTU';
const CACHE_SECONDS = CATALOGUE_TTL_MS / 1000; // spec rule 7: clients may cache catalogues for 30 minutes

const lower = <const T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .toLowerCase()
    .pipe(z.enum(values, { error: `${name} must be one of ${values.join(', ')}` }));

export const networkInput = lower('network', ['mtn', 'airtel', 'glo', '9mobile']);
export const cableInput = lower('identifier', ['dstv', 'gotv', 'startimes', 'showmax']);
export const discoInput = lower('plan', ['ikeja', 'eko', 'kano', 'portharcourt', 'jos', 'ibadan', 'kaduna', 'abuja', 'enugu', 'benin', 'aba', 'yola']);
export const meterTypeInput = lower('type', ['prepaid', 'postpaid']);
export const serviceInput = lower('service', ['airtime', 'data', 'cable', 'electricity', 'betting', 'exam']);
export const providerInput = lower('provider', ['a', 'b', 'c', 'd']);
const pinInput = z.string({ error: 'pin is required' }).regex(/^\d{4}$/, 'pin must be 4 digits');
const planIdInput = z.string({ error: 'plan_id is required' }).trim().min(1, 'plan_id is required').max(80, 'plan_id is too long');
const iucInput = z.string({ error: 'iuc is required' }).trim().regex(/^\d{10,12}$/, 'iuc must be the 10-12 digit smartcard (IUC) number');
const meterInput = z.string({ error: 'meter is required' }).trim().regex(/^\d{11,13}$/, 'meter must be the 11-13 digit meter number');
const customerIdInput = z.string({ error: 'customer_id is required' }).trim().regex(/^[A-Za-z0-9_-]{3,30}$/, 'customer_id must be 3-30 letters, digits, _ or -');
const companyInput = z.string({ error: 'betting_company is required' }).trim().toLowerCase().regex(/^[a-z0-9-]{2,30}$/, 'betting_company must be a company id from listBetCompanies');

export const transactionOutput = z.object({
  id: z.string(),
  reference: z.string(),
  service: z.string(),
  status: z.enum(['processing', 'success', 'failed']),
  amount: z.number(),
  recipient: z.string(),
  network: z.string().optional(),
  planId: z.string().optional(),
  product: z.string().optional(),
  meterType: z.string().optional(),
  quantity: z.number().optional(),
  phone: z.string().optional(),
  provider: z.string(),
  ported: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  token: z.string().optional(),
  units: z.string().optional(),
  pins: z.array(z.object({ pin: z.string(), serial: z.string().optional() })).optional(),
  customerName: z.string().optional(),
  failureReason: z.string().optional(),
});
const txOut = z.object({ transaction: transactionOutput });
const PURCHASE_ERRORS: ErrorCode[] = ['INVALID_PIN', 'PIN_NOT_SET', 'PIN_LOCKED', 'KYC_TIER_REQUIRED', 'INSUFFICIENT_FUNDS', 'LIMIT_EXCEEDED', 'UPSTREAM_ERROR'];

export const buyAirtimeInput = z.object({
  network: networkInput,
  phone: phoneInput,
  amount: nairaAmount({ min: 50, max: 50_000 }),
  pin: pinInput,
  ported: z.boolean({ error: 'ported must be true or false' }).optional(),
});
export const buyDataInput = z.object({
  network: networkInput,
  plan_id: planIdInput,
  phone: phoneInput,
  amount: nairaAmount({ max: 100_000 }),
  pin: pinInput,
  ported: z.boolean({ error: 'ported must be true or false' }).optional(),
});
export const subscribeCableInput = z.object({ identifier: cableInput, iuc: iucInput, plan_id: planIdInput, amount: nairaAmount({ max: 200_000 }), phone: phoneInput, pin: pinInput });
export const buyElectricityInput = z.object({
  plan: discoInput,
  meter: meterInput,
  type: meterTypeInput,
  amount: nairaAmount({ min: 1000, max: 500_000 }),
  phone: phoneInput,
  pin: pinInput,
});
export const fundBetInput = z.object({ betting_company: companyInput, customer_id: customerIdInput, amount: nairaAmount({ min: 100, max: 500_000 }), pin: pinInput });
export const buyEducationPinInput = z.object({
  exam: z.string({ error: 'exam is required' }).trim().toLowerCase().regex(/^[a-z0-9-]{2,40}$/, 'exam must be a plan_id from listEducationPins'),
  quantity: z.number({ error: 'quantity must be a number' }).int('quantity must be a whole number').min(1, 'quantity must be at least 1').max(10, 'quantity must be at most 10').default(1),
  phone: phoneInput,
  amount: nairaAmount({ max: 500_000 }),
  profile_id: z.string().trim().regex(/^[A-Za-z0-9]{6,20}$/, 'profile_id must be 6-20 letters or digits').optional(),
  pin: pinInput,
});

const withoutPin = <T extends { pin: string }>(i: T): Omit<T, 'pin'> => {
  const { pin: _pin, ...rest } = i;
  return rest;
};

export const vtuOperations = [
  // ---------- catalogues ----------
  defineOperation({
    name: 'listAirtimeNetworks',
    suffix: SUFFIX,
    method: 'GET',
    versioned: true,
    cacheSeconds: CACHE_SECONDS,
    purpose: 'available airtime networks',
    input: z.object({}),
    output: z.object({ items: z.array(z.object({ id: z.string(), name: z.string(), minAmount: z.number(), maxAmount: z.number() })) }),
    errors: ['UPSTREAM_ERROR'],
    handler: async (_i, ctx) => ({ items: await ctx.services.vtu.airtimeNetworks() }),
  }),
  defineOperation({
    name: 'listDataNetworks',
    suffix: SUFFIX,
    method: 'GET',
    versioned: true,
    cacheSeconds: CACHE_SECONDS,
    purpose: 'available data networks',
    input: z.object({}),
    output: z.object({ items: z.array(z.object({ id: z.string(), name: z.string() })) }),
    errors: ['UPSTREAM_ERROR'],
    handler: async (_i, ctx) => ({ items: await ctx.services.vtu.dataNetworks() }),
  }),
  defineOperation({
    name: 'listDataPlanTypes',
    suffix: SUFFIX,
    method: 'GET',
    versioned: true,
    cacheSeconds: CACHE_SECONDS,
    purpose: 'plan categories (for example SME, CG, GIFTING) for a network',
    input: z.object({ network: networkInput }),
    output: z.object({ items: z.array(z.object({ planType: z.string(), network: z.string(), plans: z.number() })) }),
    errors: ['UPSTREAM_ERROR'],
    handler: async (i, ctx) => ({ items: await ctx.services.vtu.dataPlanTypes(i.network) }),
  }),
  defineOperation({
    name: 'listDataPlans',
    suffix: SUFFIX,
    method: 'GET',
    versioned: true,
    cacheSeconds: CACHE_SECONDS,
    purpose: 'all data plans for a network',
    input: z.object({ network: networkInput }),
    output: z.object({ items: z.array(dataPlanOutput()) }),
    errors: ['UPSTREAM_ERROR'],
    handler: async (i, ctx) => ({ items: await ctx.services.vtu.dataPlans(i.network) }),
  }),
  defineOperation({
    name: 'listDataPlansForCategory',
    suffix: SUFFIX,
    method: 'GET',
    versioned: true,
    cacheSeconds: CACHE_SECONDS,
    purpose: 'plans in one category',
    input: z.object({ network: networkInput, planType: z.string({ error: 'planType is required' }).trim().min(1, 'planType is required').max(30, 'planType is too long') }),
    output: z.object({ items: z.array(dataPlanOutput()) }),
    errors: ['UPSTREAM_ERROR'],
    handler: async (i, ctx) => ({ items: await ctx.services.vtu.dataPlans(i.network, i.planType) }),
  }),
  defineOperation({
    name: 'listCableProviders',
    suffix: SUFFIX,
    method: 'GET',
    versioned: true,
    cacheSeconds: CACHE_SECONDS,
    purpose: 'cable TV providers',
    input: z.object({}),
    output: z.object({ items: z.array(z.object({ id: z.string(), name: z.string() })) }),
    errors: ['UPSTREAM_ERROR'],
    handler: async (_i, ctx) => ({ items: await ctx.services.vtu.cableProviders() }),
  }),
  defineOperation({
    name: 'listCablePlans',
    suffix: SUFFIX,
    method: 'GET',
    versioned: true,
    cacheSeconds: CACHE_SECONDS,
    purpose: 'cable plans for a provider',
    input: z.object({ identifier: cableInput }),
    output: z.object({ items: z.array(z.object({ plan_id: z.string(), identifier: z.string(), name: z.string(), price: z.number() })) }),
    errors: ['UPSTREAM_ERROR'],
    handler: async (i, ctx) => ({ items: await ctx.services.vtu.cablePlans(i.identifier) }),
  }),
  defineOperation({
    name: 'listElectricityPlans',
    suffix: SUFFIX,
    method: 'GET',
    versioned: true,
    cacheSeconds: CACHE_SECONDS,
    purpose: 'available distribution companies',
    input: z.object({}),
    output: z.object({ items: z.array(z.object({ id: z.string(), name: z.string(), types: z.array(z.string()), minAmount: z.number() })) }),
    errors: ['UPSTREAM_ERROR'],
    handler: async (_i, ctx) => ({ items: await ctx.services.vtu.electricityPlans() }),
  }),
  defineOperation({
    name: 'listBetCompanies',
    suffix: SUFFIX,
    method: 'GET',
    versioned: true,
    cacheSeconds: CACHE_SECONDS,
    purpose: 'supported betting companies',
    input: z.object({}),
    output: z.object({ items: z.array(z.object({ id: z.string(), name: z.string() })) }),
    errors: ['UPSTREAM_ERROR'],
    handler: async (_i, ctx) => ({ items: await ctx.services.vtu.betCompanies() }),
  }),
  defineOperation({
    name: 'listEducationPins',
    suffix: SUFFIX,
    method: 'GET',
    cacheSeconds: CACHE_SECONDS,
    purpose: 'exam PIN products with retail prices (extension: the catalogue behind buyEducationPin)',
    input: z.object({}),
    output: z.object({ items: z.array(z.object({ plan_id: z.string(), name: z.string(), price: z.number(), requiresProfileId: z.boolean() })) }),
    errors: ['UPSTREAM_ERROR'],
    handler: async (_i, ctx) => ({ items: await ctx.services.vtu.educationPins() }),
  }),

  // ---------- quote and verification ----------
  defineOperation({
    name: 'quotePrice',
    suffix: SUFFIX,
    method: 'POST',
    versioned: true,
    purpose: 'retail price after markup',
    input: z.object({ service: serviceInput, provider: providerInput.optional(), wholesale: nairaAmount({ max: 10_000_000 }) }),
    output: z.object({ service: z.string(), provider: z.string(), wholesale: z.number(), markup: z.number(), retail: z.number() }),
    handler: async (i, ctx) => ctx.services.vtu.quote(i),
  }),
  defineOperation({
    name: 'verifyCableIUC',
    suffix: SUFFIX,
    method: 'POST',
    versioned: true,
    purpose: 'look up cable subscriber name',
    input: z.object({ iuc: iucInput, identifier: cableInput }),
    output: z.object({ customerName: z.string(), iuc: z.string(), identifier: z.string() }),
    errors: ['NOT_FOUND', 'UPSTREAM_ERROR'],
    handler: async (i, ctx) => ctx.services.vtu.verifyCable(i),
  }),
  defineOperation({
    name: 'verifyMeter',
    suffix: SUFFIX,
    method: 'POST',
    versioned: true,
    purpose: 'look up meter/customer name',
    input: z.object({ meter: meterInput, plan: discoInput, type: meterTypeInput }),
    output: z.object({ customerName: z.string(), address: z.string().nullable(), meter: z.string(), plan: z.string(), type: z.string() }),
    errors: ['NOT_FOUND', 'UPSTREAM_ERROR'],
    handler: async (i, ctx) => ctx.services.vtu.verifyMeter(i),
  }),
  defineOperation({
    name: 'verifyBetAccount',
    suffix: SUFFIX,
    method: 'POST',
    versioned: true,
    purpose: 'look up betting customer',
    input: z.object({ betting_company: companyInput, customer_id: customerIdInput }),
    output: z.object({ customerName: z.string(), customer_id: z.string(), betting_company: z.string() }),
    errors: ['NOT_FOUND', 'UPSTREAM_ERROR'],
    handler: async (i, ctx) => ctx.services.vtu.verifyBet(i),
  }),

  // ---------- purchases (spec 4.5: quote, collect PIN, purchase) ----------
  defineOperation({
    name: 'buyAirtime',
    suffix: SUFFIX,
    method: 'POST',
    versioned: true,
    purpose: 'purchase airtime',
    rateLimit: 'money',
    gates: { pin: true, kycTier: 1 },
    // Spec rule 5: the prefix check runs before the PIN, the tier and any debit.
    precheck: (i) => assertRecipientNetwork(i.network, i.phone, i.ported),
    input: buyAirtimeInput,
    output: txOut,
    errors: ['NETWORK_MISMATCH', ...PURCHASE_ERRORS],
    handler: async (i, ctx) => ({ transaction: await ctx.services.vtu.purchase(ctx.user, 'airtime', withoutPin(i)) }),
  }),
  defineOperation({
    name: 'buyData',
    suffix: SUFFIX,
    method: 'POST',
    versioned: true,
    purpose: 'purchase a data bundle',
    rateLimit: 'money',
    gates: { pin: true, kycTier: 1 },
    precheck: (i) => assertRecipientNetwork(i.network, i.phone, i.ported),
    input: buyDataInput,
    output: txOut,
    errors: ['NETWORK_MISMATCH', 'PRICE_CHANGED', ...PURCHASE_ERRORS],
    handler: async (i, ctx) => ({ transaction: await ctx.services.vtu.purchase(ctx.user, 'data', withoutPin(i)) }),
  }),
  defineOperation({
    name: 'subscribeCable',
    suffix: SUFFIX,
    method: 'POST',
    versioned: true,
    purpose: 'pay a cable subscription (PIN required)',
    rateLimit: 'money',
    gates: { pin: true, kycTier: 1 },
    input: subscribeCableInput,
    output: txOut,
    errors: ['PRICE_CHANGED', ...PURCHASE_ERRORS],
    handler: async (i, ctx) => ({ transaction: await ctx.services.vtu.purchase(ctx.user, 'cable', withoutPin(i)) }),
  }),
  defineOperation({
    name: 'buyElectricity',
    suffix: SUFFIX,
    method: 'POST',
    versioned: true,
    purpose: 'buy an electricity token (PIN required, minimum 1,000 naira)',
    rateLimit: 'money',
    gates: { pin: true, kycTier: 1 },
    input: buyElectricityInput,
    output: txOut,
    errors: PURCHASE_ERRORS,
    handler: async (i, ctx) => ({ transaction: await ctx.services.vtu.purchase(ctx.user, 'electricity', withoutPin(i)) }),
  }),
  defineOperation({
    name: 'fundBet',
    suffix: SUFFIX,
    method: 'POST',
    versioned: true,
    purpose: 'fund a betting wallet (PIN required)',
    rateLimit: 'money',
    gates: { pin: true, kycTier: 1 },
    input: fundBetInput,
    output: txOut,
    errors: PURCHASE_ERRORS,
    handler: async (i, ctx) => ({ transaction: await ctx.services.vtu.purchase(ctx.user, 'betting', withoutPin(i)) }),
  }),
  defineOperation({
    name: 'buyEducationPin',
    suffix: SUFFIX,
    method: 'POST',
    versioned: true,
    purpose: 'buy an exam pin (PIN required)',
    rateLimit: 'money',
    gates: { pin: true, kycTier: 1 },
    input: buyEducationPinInput,
    output: txOut,
    errors: ['PRICE_CHANGED', ...PURCHASE_ERRORS],
    handler: async (i, ctx) => ({ transaction: await ctx.services.vtu.purchase(ctx.user, 'exam', withoutPin(i)) }),
  }),

  // ---------- the caller's transactions ----------
  defineOperation({
    name: 'listMyVtuTransactions',
    suffix: SUFFIX,
    method: 'GET',
    versioned: true,
    purpose: 'recent VTU transactions of the caller',
    input: z.object({
      ...pageInput,
      status: lower('status', ['processing', 'success', 'failed']).optional(),
      service: serviceInput.optional(),
    }),
    output: pageOutput(transactionOutput),
    handler: async (i, ctx) => ctx.services.vtu.listMine(ctx.user.id, i),
  }),
  defineOperation({
    name: 'getMyVtuTransaction',
    suffix: SUFFIX,
    method: 'POST',
    versioned: true,
    purpose: 'fetch one VTU transaction',
    input: z.object({ id: uuidInput('id') }),
    output: txOut,
    errors: ['NOT_FOUND'],
    handler: async (i, ctx) => ({ transaction: await ctx.services.vtu.getMine(ctx.user.id, i.id) }),
  }),

  // ---------- operators ----------
  defineOperation({
    name: 'adminSetMarkup',
    suffix: 'BearerAdmin',
    method: 'POST',
    purpose: 'set the markup of a service (optionally for one provider): flat naira or percent',
    input: z
      .object({
        service: serviceInput,
        provider: providerInput.optional(),
        kind: lower('kind', ['flat', 'percent']),
        value: z.number({ error: 'value must be a number' }).finite().min(0, 'value must be 0 or more').max(1_000_000, 'value is too large'),
      })
      .refine((v) => v.kind !== 'percent' || v.value <= 100, { message: 'a percent markup must be at most 100', path: ['value'] })
      .refine((v) => Math.abs(Math.round(v.value * 100) - v.value * 100) < 1e-6, { message: 'value must have at most 2 decimals', path: ['value'] }),
    output: z.object({ markup: markupOutput() }),
    handler: async (i, ctx) => ({ markup: await ctx.services.vtu.adminSetMarkup(ctx.user.id, i) }),
  }),
  defineOperation({
    name: 'adminListMarkups',
    suffix: 'BearerAdmin',
    method: 'GET',
    purpose: 'markups per service and provider',
    input: z.object({}),
    output: z.object({ items: z.array(markupOutput()) }),
    handler: async (_i, ctx) => ({ items: await ctx.services.vtu.adminListMarkups() }),
  }),
  defineOperation({
    name: 'adminListProviderFloats',
    suffix: 'BearerAdmin',
    method: 'GET',
    purpose: "each provider's float: our ledger's view and the provider's reported balance",
    input: z.object({}),
    output: z.object({
      items: z.array(z.object({ provider: z.string(), services: z.array(z.string()), ledgerFloat: z.number(), providerBalance: z.number().nullable() })),
    }),
    handler: async (_i, ctx) => ({ items: await ctx.services.vtu.adminListFloats() }),
  }),
  defineOperation({
    name: 'adminFundProviderFloat',
    suffix: 'BearerAdmin',
    method: 'POST',
    purpose: "fund a provider's float from the collections pool",
    input: z.object({ provider: providerInput, amount: nairaAmount({ min: 1000, max: 100_000_000 }) }),
    output: z.object({ provider: z.string(), amount: z.number(), providerBalance: z.number() }),
    errors: ['UPSTREAM_ERROR'],
    handler: async (i, ctx) => ctx.services.vtu.adminFundFloat(ctx.user.id, i.provider, toKobo(i.amount)),
  }),
  defineOperation({
    name: 'adminRequeryVtuTransaction',
    suffix: 'BearerAdmin',
    method: 'POST',
    purpose: 'requery one VTU transaction at its provider now and settle it',
    input: z.object({ id: uuidInput('id') }),
    output: z.object({ transaction: transactionOutput, providerStatus: z.string() }),
    errors: ['NOT_FOUND'],
    handler: async (i, ctx) => ctx.services.vtu.adminRequery(i.id),
  }),
  defineOperation({
    name: 'adminResolveVtuTransaction',
    suffix: 'BearerAdmin',
    method: 'POST',
    purpose: 'settle a processing VTU transaction by hand after confirming the outcome with the provider (failed refunds once)',
    input: z.object({
      id: uuidInput('id'),
      outcome: lower('outcome', ['delivered', 'failed']),
      note: z.string({ error: 'note is required' }).trim().min(5, 'note must say how the outcome was confirmed (5-500 characters)').max(500, 'note must be at most 500 characters'),
    }),
    output: txOut,
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async (i, ctx) => ({ transaction: await ctx.services.vtu.adminResolve(ctx.user.id, i.id, i.outcome, i.note) }),
  }),
  defineOperation({
    name: 'adminListStuckVtuTransactions',
    suffix: 'BearerAdmin',
    method: 'GET',
    purpose: 'processing transactions older than VTU_STUCK_AFTER_MS, for an operator to resolve',
    input: z.object({ ...pageInput }),
    output: pageOutput(
      transactionOutput.extend({
        userId: z.string(),
        requestId: z.string(),
        requeryCount: z.number(),
        lastProviderStatus: z.string().nullable(),
        lastCheckedAt: z.string().nullable(),
      }),
    ),
    handler: async (i, ctx) => ctx.services.vtu.adminListStuck(i.limit, i.offset),
  }),
];

function dataPlanOutput() {
  return z.object({ plan_id: z.string(), network: z.string(), planType: z.string(), name: z.string(), validity: z.string(), price: z.number() });
}
function markupOutput() {
  return z.object({ service: z.string(), provider: z.string().nullable(), kind: z.enum(['flat', 'percent']), value: z.number(), updatedAt: z.string() });
}
