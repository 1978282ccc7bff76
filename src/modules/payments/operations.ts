import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { pageInput, pageOutput } from '../../kernel/paging.js';
import { queryBool } from '../../kernel/inputs.js';
import { naira, toKobo, toNaira } from '../../kernel/money.js';
import { submissionFields } from '../approvals/api.js';
import { emailInput } from '../identity/api.js';
import { referenceInput, topupIntentOutput } from '../wallet/api.js';
import { PAYMENT_SORTS } from './admin.js';
import { correctionAmountInput, topupAmountInput } from './inputs.js';

const reasonInput = z
  .string({ error: 'reason is required' })
  .trim()
  .min(3, 'reason must be at least 3 characters')
  .max(500, 'reason must be at most 500 characters');

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['payments', 'approvals']);

const callbackUrlInput = z
  .string({ error: 'callbackUrl is required' })
  .trim()
  .max(2048, 'callbackUrl is too long')
  .url('callbackUrl must be an absolute URL')
  .refine((u) => /^https?:\/\//i.test(u), 'callbackUrl must be http or https');

const historyItem = z
  .object({
    kind: z.enum(['topup', 'dva']),
    reference: z.string(),
    amount: naira,
    amountPaid: z.number().nullable(),
    status: z.string(),
    processor: z.string(),
    channel: z.string().nullable(),
    createdAt: z.string(),
    settledAt: z.string().nullable(),
  })
  .meta({ id: 'PaymentHistoryItem' });

const adminItem = z
  .object({
    kind: z.enum(['intent', 'settlement', 'event']),
    id: z.string(),
    reference: z.string().nullable(),
    processor: z.string(),
    status: z.string().optional(),
    amount: naira.optional(),
    amountPaid: z.number().nullable().optional(),
    userId: z.string().optional(),
    userEmail: z.string().optional(),
    settlementKind: z.string().optional(),
    channel: z.string().nullable().optional(),
    source: z.string().optional(),
    flagged: z.boolean().optional(),
    event: z.string().optional(),
    outcome: z.string().nullable().optional(),
    deliveries: z.number().optional(),
    failureReason: z.string().nullable().optional(),
    createdAt: z.string(),
    settledAt: z.string().nullable().optional(),
    processedAt: z.string().nullable().optional(),
  })
  .meta({ id: 'PaymentRecord' });

export const paymentsOperations = [
  defineOperation({
    name: 'startProcessorTopup',
    suffix: 'BearerPayments',
    method: 'POST',
    gates: { money: true },
    purpose: 'initialize a payment-processor transaction',
    rateLimit: 'money',
    input: z.object({
      amount: topupAmountInput,
      email: emailInput,
      callbackUrl: callbackUrlInput,
    }),
    output: topupIntentOutput.extend({ authorizationUrl: z.string(), accessCode: z.string() }),
    errors: ['AMOUNT_OUT_OF_RANGE', 'UPSTREAM_ERROR'],
    handler: async (input, ctx) => ctx.api.payments.startProcessorTopup(ctx.user, input),
  }),
  defineOperation({
    name: 'verifyProcessorTopup',
    suffix: 'BearerPayments',
    method: 'POST',
    gates: { money: true },
    purpose: 'verify a reference and credit the wallet if unsettled',
    rateLimit: 'money',
    input: z.object({ reference: referenceInput }),
    output: topupIntentOutput.extend({ credited: z.boolean() }),
    errors: ['NOT_FOUND', 'UPSTREAM_ERROR'],
    handler: async (input, ctx) => ctx.api.payments.verifyProcessorTopup(ctx.user.id, input.reference),
  }),
  defineOperation({
    name: 'getTopupReceipt',
    suffix: 'BearerPayments',
    method: 'GET',
    purpose: 'shareable top-up receipt',
    input: z.object({ reference: referenceInput }),
    output: z.object({
      receipt: z.object({
        reference: z.string(),
        kind: z.string(),
        status: z.literal('success'),
        amount: naira,
        requestedAmount: naira.nullable(),
        currency: z.literal('NGN'),
        processor: z.string(),
        channel: z.string().nullable(),
        paidAt: z.string(),
        creditedAt: z.string(),
        creditedTo: z.string(),
      }),
    }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async (input, ctx) => ctx.api.payments.getTopupReceipt(ctx.user.id, input.reference),
  }),
  defineOperation({
    name: 'listPaymentHistory',
    suffix: 'BearerPayments',
    method: 'GET',
    purpose: "caller's payment intents and settlements",
    input: z.object({ ...pageInput }),
    output: pageOutput(historyItem),
    handler: async (input, ctx) => ctx.api.payments.listPaymentHistory(ctx.user.id, input.limit, input.offset),
  }),
  defineOperation({
    name: 'adminSearchPayments',
    suffix: 'BearerAdmin',
    roles: ['finance', 'support'],
    method: 'GET',
    purpose:
      'operator search of top-up intents, settlements and processor events, newest first, oldest first or (intents and settlements) by amount; paid=different keeps intents paid less or more than they asked',
    input: z
      .object({
        kind: z.enum(['intents', 'settlements', 'events']).default('intents'),
        reference: referenceInput.optional(),
        userId: z.string().uuid('userId must be a UUID').optional(),
        email: emailInput.optional(),
        status: z.string().trim().max(20).optional(),
        flagged: queryBool.optional(),
        paid: z.enum(['different'], { error: 'paid must be different' }).optional(),
        sort: z.enum(PAYMENT_SORTS, { error: 'sort must be newest, oldest, amount_desc or amount_asc' }).default('newest'),
        ...pageInput,
      })
      .refine((i) => i.kind !== 'events' || !i.sort.startsWith('amount'), {
        path: ['sort'],
        message: 'sort must be newest or oldest for events, which have no amount',
      }),
    output: pageOutput(adminItem),
    handler: async (input, ctx) => ctx.api.payments.adminSearchPayments(input),
  }),
  defineOperation({
    name: 'adminRunReconciliation',
    suffix: 'BearerAdmin',
    roles: ['finance'],
    upstream: true,
    method: 'POST',
    stepUpExempt: 'settles only what the processor itself reports as paid; the operator chooses no amount',
    purpose: 'verify every unsettled top-up with the processor now; settle paid ones, mark failed and abandoned ones',
    input: z.object({}),
    output: z.object({ checked: z.number(), settled: z.number(), failed: z.number(), abandoned: z.number(), errors: z.number() }),
    handler: async (_input, ctx) => ctx.api.payments.reconcile({ minAgeMs: 0 }),
  }),
  defineOperation({
    name: 'adminAdjustWallet',
    suffix: 'BearerAdmin',
    roles: ['finance'],
    method: 'POST',
    purpose:
      "credit (positive) or debit (negative) a user's wallet with a mandatory reason; at or above the walletAdjustment threshold it waits for a second operator (adminApproveRequest)",
    rateLimit: 'money',
    gates: { stepUp: true },
    input: z.object({
      userId: z.string().uuid('userId must be a UUID'),
      amount: correctionAmountInput,
      reason: reasonInput,
    }),
    output: z.object({ ...submissionFields, reference: z.string().nullable(), amount: naira, balance: naira.nullable() }),
    errors: ['NOT_FOUND', 'INSUFFICIENT_FUNDS'],
    handler: async (input, ctx) => {
      const s = await ctx.api.approvals.submit(ctx.user.id, {
        action: 'wallet_adjustment',
        userId: input.userId,
        amount: toKobo(input.amount),
        reason: input.reason,
      });
      ctx.audit.target('user', input.userId);
      if (s.approval) ctx.audit.target('approval_request', s.approval.id);
      const r = s.result as { reference: string; balance: number } | null;
      if (r)
        ctx.audit.change({ balance: toNaira(toKobo(r.balance) - toKobo(input.amount)) }, { balance: r.balance, reference: r.reference });
      return { status: s.status, approval: s.approval, reference: r?.reference ?? null, amount: input.amount, balance: r?.balance ?? null };
    },
  }),
  defineOperation({
    name: 'adminCorrectSettlement',
    suffix: 'BearerAdmin',
    roles: ['finance'],
    method: 'POST',
    purpose:
      'correct a top-up settlement whose processor amount differs from what the wallet got: credit (positive) or debit (negative) the wallet against collections, with a reason; at or above the settlementCorrection threshold it waits for a second operator',
    rateLimit: 'money',
    gates: { stepUp: true },
    input: z.object({ settlementId: z.string().uuid('settlementId must be a UUID'), amount: correctionAmountInput, reason: reasonInput }),
    output: z.object({ ...submissionFields, reference: z.string().nullable(), amount: naira, balance: naira.nullable() }),
    errors: ['NOT_FOUND', 'INSUFFICIENT_FUNDS'],
    handler: async (input, ctx) => {
      const s = await ctx.api.approvals.submit(ctx.user.id, {
        action: 'settlement_correction',
        settlementId: input.settlementId,
        amount: toKobo(input.amount),
        reason: input.reason,
      });
      ctx.audit.target('payment_settlement', input.settlementId);
      if (s.approval) ctx.audit.target('approval_request', s.approval.id);
      const r = s.result as { reference: string; balance: number } | null;
      return { status: s.status, approval: s.approval, reference: r?.reference ?? null, amount: input.amount, balance: r?.balance ?? null };
    },
  }),
];
