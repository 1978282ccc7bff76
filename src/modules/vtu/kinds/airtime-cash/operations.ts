import { z } from 'zod';
import { operationsOf } from '../../../../platform/operation.js';
import { queryBool, uuidInput } from '../../../../kernel/inputs.js';
import { naira } from '../../../../kernel/money.js';
import { pageInput, pageOutput } from '../../../../kernel/paging.js';
import { otpCodeInput } from '../../../identity/api.js';
import { lower } from '../common-inputs.js';
import { assertRecipientNetwork } from '../../model.js';
import { AIRTIME_CASH_STATUSES, airtimeCashNumberInput, quoteAirtimeCashInput, requestAirtimeCashInput } from './inputs.js';

/** What these handlers use (ctx.api). */
const defineOperation = operationsOf(['airtimeCash']);
const SUFFIX = 'BearerVTU';

export const airtimeCashOutput = z.object({
  id: z.string(),
  reference: z.string(),
  status: z.enum(AIRTIME_CASH_STATUSES),
  network: z.string(),
  phone: z.string().meta({ description: 'the sending number' }),
  amount: naira.meta({ description: 'the airtime to send (face value)' }),
  rate: z.number().meta({ description: 'percent of the airtime received that is credited' }),
  expectedCredit: naira.meta({ description: 'what the wallet gets if the whole amount arrives' }),
  receivingNumber: z.string().meta({ description: 'where to send the airtime (empty when the request failed)' }),
  ussd: z.string().meta({ description: "the network's share-and-sell string to dial; PIN is the sender's SIM transfer PIN" }),
  expiresAt: z.string(),
  amountReceived: naira.nullable().meta({ description: 'what the provider confirmed it received' }),
  credited: naira.nullable(),
  partial: z.boolean().meta({ description: 'less arrived than was asked for; the part received was credited' }),
  failureReason: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const requestOut = z.object({ request: airtimeCashOutput });
const statusInput = lower('status', AIRTIME_CASH_STATUSES);

export const airtimeCashOperations = [
  defineOperation({
    name: 'listAirtimeCashNetworks',
    suffix: SUFFIX,
    method: 'GET',
    purpose: "airtime-to-cash networks with today's rate (percent credited) and one request's bounds",
    input: z.object({}),
    output: z.object({
      items: z.array(z.object({ id: z.string(), name: z.string(), rate: z.number(), minAmount: naira, maxAmount: naira })),
    }),
    handler: async (_i, ctx) => ({ items: ctx.api.airtimeCash.networks() }),
  }),
  defineOperation({
    name: 'quoteAirtimeCash',
    suffix: SUFFIX,
    method: 'POST',
    purpose: "what converting this much airtime credits, and what is left of the caller's daily cap",
    input: quoteAirtimeCashInput,
    output: z.object({ network: z.string(), amount: naira, rate: z.number(), credit: naira, remainingToday: naira }),
    errors: ['AMOUNT_OUT_OF_RANGE'],
    handler: async (i, ctx) => ctx.api.airtimeCash.quote(ctx.user.id, i),
  }),
  defineOperation({
    name: 'listAirtimeCashNumbers',
    suffix: SUFFIX,
    method: 'GET',
    purpose: "the caller's sending numbers: the verified profile phone and numbers verified by SMS code",
    input: z.object({}),
    output: z.object({ items: z.array(z.object({ phone: z.string(), source: z.enum(['profile', 'code']) })) }),
    handler: async (_i, ctx) => ctx.api.airtimeCash.numbers(ctx.user.id),
  }),
  defineOperation({
    name: 'sendAirtimeCashNumberCode',
    suffix: SUFFIX,
    method: 'POST',
    purpose: 'send an SMS code to a number the caller wants to sell airtime from',
    rateLimit: 'auth',
    input: airtimeCashNumberInput,
    output: z.object({ sent: z.boolean(), alreadyVerified: z.boolean(), expiresInSeconds: z.number() }),
    errors: ['OTP_COOLDOWN', 'OTP_DAILY_LIMIT', 'UPSTREAM_ERROR'],
    handler: async (i, ctx) => ctx.api.airtimeCash.sendNumberCode(ctx.user.id, i.phone, ctx.ip),
  }),
  defineOperation({
    name: 'verifyAirtimeCashNumber',
    suffix: SUFFIX,
    method: 'POST',
    purpose: 'prove a sending number with its SMS code; it may then be used for airtime-to-cash',
    rateLimit: 'auth',
    input: airtimeCashNumberInput.extend({ code: otpCodeInput }),
    output: z.object({ phone: z.string(), verified: z.boolean() }),
    errors: ['OTP_INVALID', 'OTP_EXPIRED'],
    handler: async (i, ctx) => ctx.api.airtimeCash.verifyNumber(ctx.user.id, i.phone, i.code, ctx.ip),
  }),
  defineOperation({
    name: 'requestAirtimeCash',
    suffix: SUFFIX,
    method: 'POST',
    purpose:
      'ask to convert airtime to cash (PIN required): answers where and how to send it (receiving number, USSD string) under a reference; the wallet is credited only when the provider confirms receipt',
    rateLimit: 'money',
    gates: { money: true, pin: true, kycTier: 1 },
    // The sending number's network is checked before the PIN, as for purchases (spec rule 5).
    precheck: (i) => assertRecipientNetwork(i.network, i.phone, i.ported),
    input: requestAirtimeCashInput,
    output: requestOut,
    errors: [
      'NETWORK_MISMATCH',
      'AMOUNT_OUT_OF_RANGE',
      'LIMIT_EXCEEDED',
      'NOT_ELIGIBLE',
      'INVALID_PIN',
      'PIN_NOT_SET',
      'PIN_LOCKED',
      'KYC_TIER_REQUIRED',
    ],
    handler: async ({ pin: _pin, ...i }, ctx) => ({ request: await ctx.api.airtimeCash.request(ctx.user, i) }),
  }),
  defineOperation({
    name: 'listMyAirtimeCashRequests',
    suffix: SUFFIX,
    method: 'GET',
    purpose: "the caller's airtime-to-cash requests, newest first",
    input: z.object({ ...pageInput, status: statusInput.optional() }),
    output: pageOutput(airtimeCashOutput),
    handler: async (i, ctx) => ctx.api.airtimeCash.listMine(ctx.user.id, i),
  }),
  defineOperation({
    name: 'getMyAirtimeCashRequest',
    suffix: SUFFIX,
    method: 'POST',
    purpose: 'one airtime-to-cash request of the caller',
    input: z.object({ id: uuidInput('id') }),
    output: requestOut,
    errors: ['NOT_FOUND'],
    handler: async (i, ctx) => ({ request: await ctx.api.airtimeCash.getMine(ctx.user.id, i.id) }),
  }),
  defineOperation({
    name: 'checkMyAirtimeCashRequest',
    suffix: SUFFIX,
    method: 'POST',
    purpose: '"I have sent it": asks the provider now whether the airtime arrived (only its answer credits)',
    rateLimit: 'strict',
    input: z.object({ id: uuidInput('id') }),
    output: requestOut,
    errors: ['NOT_FOUND'],
    handler: async (i, ctx) => ({ request: await ctx.api.airtimeCash.checkMine(ctx.user.id, i.id) }),
  }),

  // ---------- operators ----------
  defineOperation({
    name: 'adminListAirtimeCashRequests',
    suffix: 'BearerAdmin',
    roles: ['finance', 'support'],
    method: 'GET',
    purpose: 'airtime-to-cash requests, newest first; stuck: awaiting past their expiry (the provider could not say what arrived)',
    input: z.object({ ...pageInput, status: statusInput.optional(), stuck: queryBool.optional() }),
    output: pageOutput(
      airtimeCashOutput.extend({
        userId: z.string(),
        requestId: z.string(),
        requeryCount: z.number(),
        lastProviderStatus: z.string().nullable(),
        lastCheckedAt: z.string().nullable(),
      }),
    ),
    handler: async (i, ctx) => ctx.api.airtimeCash.adminList(i),
  }),
  defineOperation({
    name: 'adminRequeryAirtimeCashRequest',
    suffix: 'BearerAdmin',
    roles: ['finance'],
    upstream: true,
    method: 'POST',
    stepUpExempt: "applies the provider's own answer for a request; the operator chooses no outcome",
    purpose: 'ask the provider a request was sent to what arrived for it now, and apply its answer',
    input: z.object({ id: uuidInput('id') }),
    output: z.object({ request: airtimeCashOutput, providerStatus: z.string() }),
    errors: ['NOT_FOUND'],
    handler: async (i, ctx) => {
      ctx.audit.target('airtime_cash_request', i.id);
      return ctx.api.airtimeCash.adminRequery(i.id);
    },
  }),
  defineOperation({
    name: 'adminResolveAirtimeCashRequest',
    suffix: 'BearerAdmin',
    roles: ['finance'],
    method: 'POST',
    purpose:
      'close an awaiting airtime-to-cash request with nothing credited, after the provider confirmed out of band that nothing arrived (crediting always needs the provider)',
    gates: { stepUp: true },
    input: z.object({
      id: uuidInput('id'),
      note: z
        .string({ error: 'note is required' })
        .trim()
        .min(5, 'note must say how the outcome was confirmed (5-500 characters)')
        .max(500, 'note must be at most 500 characters'),
    }),
    output: requestOut,
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async (i, ctx) => {
      ctx.audit.target('airtime_cash_request', i.id);
      const out = await ctx.api.airtimeCash.adminResolve(i.id, i.note);
      ctx.audit.change({ status: 'awaiting' }, { status: out.request.status });
      return out;
    },
  }),
];
