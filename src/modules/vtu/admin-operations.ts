import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { pageInput, pageOutput } from '../../kernel/paging.js';
import { uuidInput } from '../../kernel/inputs.js';
import { nairaAmount, toKobo, toNaira, naira } from '../../kernel/money.js';
import { submissionFields } from '../approvals/api.js';
import { lower, markupOutput, providerInput } from './inputs.js';
import { serviceInput } from './kinds/index.js';
import { transactionOutput } from './view.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['vtu', 'approvals']);

/** The operators' VTU operations: markups, provider floats and routing, stuck and all transactions. */
export const vtuAdminOperations = [
  defineOperation({
    name: 'adminSetMarkup',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    gates: { stepUp: true },
    purpose: 'set the markup of a service (optionally for one provider): flat naira or percent',
    input: z
      .object({
        service: serviceInput,
        provider: providerInput.optional(),
        kind: lower('kind', ['flat', 'percent']),
        value: z
          .number({ error: 'value must be a number' })
          .finite()
          .min(0, 'value must be 0 or more')
          .max(1_000_000, 'value is too large'),
      })
      .refine((v) => v.kind !== 'percent' || v.value <= 100, { message: 'a percent markup must be at most 100', path: ['value'] })
      .refine((v) => Math.abs(Math.round(v.value * 100) - v.value * 100) < 1e-6, {
        message: 'value must have at most 2 decimals',
        path: ['value'],
      }),
    output: z.object({ markup: markupOutput() }),
    handler: async (i, ctx) => {
      const provider = i.provider ?? null;
      const before = (await ctx.api.vtu.adminListMarkups()).find((m) => m.service === i.service && (m.provider ?? null) === provider);
      const markup = await ctx.api.vtu.adminSetMarkup(ctx.user.id, i);
      ctx.audit.target('vtu_markup', `${i.service}:${provider ?? '*'}`);
      ctx.audit.change(before ? { kind: before.kind, value: before.value } : null, { kind: markup.kind, value: markup.value });
      return { markup };
    },
  }),
  defineOperation({
    name: 'adminPreviewMarkup',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    stepUpExempt: 'a read: computes which prices a markup would change and changes nothing',
    purpose:
      "which prices a markup change would change before it is set: each plan's price at the provider, before and after (a service sold by amount: ₦1,000)",
    input: z
      .object({
        service: serviceInput,
        provider: providerInput.optional(),
        kind: lower('kind', ['flat', 'percent']),
        value: z
          .number({ error: 'value must be a number' })
          .finite()
          .min(0, 'value must be 0 or more')
          .max(1_000_000, 'value is too large'),
        network: z
          .string()
          .trim()
          .toLowerCase()
          .max(20, 'network is too long')
          .optional()
          .meta({ description: "data: one network's plans" }),
        identifier: z
          .string()
          .trim()
          .toLowerCase()
          .max(40, 'identifier is too long')
          .optional()
          .meta({ description: 'cable: the provider whose plans to show (dstv, gotv, startimes); required for cable' }),
      })
      .refine((v) => v.kind !== 'percent' || v.value <= 100, { message: 'a percent markup must be at most 100', path: ['value'] }),
    output: z.object({
      service: z.string(),
      provider: z.string(),
      changes: z.array(
        z.object({
          plan: z.string().nullable(),
          name: z.string(),
          network: z.string().nullable(),
          wholesale: naira,
          before: naira,
          after: naira,
        }),
      ),
    }),
    errors: ['UPSTREAM_ERROR', 'SERVICE_UNAVAILABLE'],
    handler: async (i, ctx) => ctx.api.vtu.adminPreviewMarkup(i),
  }),
  defineOperation({
    name: 'adminListMarkups',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'GET',
    purpose: 'markups per service and provider',
    input: z.object({}),
    output: z.object({ items: z.array(markupOutput()) }),
    handler: async (_i, ctx) => ({ items: await ctx.api.vtu.adminListMarkups() }),
  }),
  defineOperation({
    name: 'adminListProviderFloats',
    suffix: 'BearerAdmin',
    roles: ['finance'],
    method: 'GET',
    purpose: "each provider's float: our ledger's view and the provider's reported balance",
    input: z.object({}),
    output: z.object({
      items: z.array(
        z.object({ provider: z.string(), services: z.array(z.string()), ledgerFloat: naira, providerBalance: naira.nullable() }),
      ),
    }),
    handler: async (_i, ctx) => ({ items: await ctx.api.vtu.adminListFloats() }),
  }),
  defineOperation({
    name: 'adminFundProviderFloat',
    suffix: 'BearerAdmin',
    roles: ['finance'],
    method: 'POST',
    gates: { stepUp: true },
    purpose: "fund a provider's float from the collections pool",
    upstream: true,
    input: z.object({ provider: providerInput, amount: nairaAmount({ min: 1000, max: 100_000_000 }) }),
    output: z.object({ provider: z.string(), amount: naira, providerBalance: naira }),
    errors: ['UPSTREAM_ERROR'],
    handler: async (i, ctx) => {
      ctx.audit.target('provider', i.provider);
      const out = await ctx.api.vtu.adminFundFloat(ctx.user.id, i.provider, toKobo(i.amount));
      const after = toKobo(out.providerBalance);
      ctx.audit.change({ providerBalance: toNaira(after - toKobo(i.amount)) }, { providerBalance: out.providerBalance });
      return out;
    },
  }),
  defineOperation({
    name: 'adminRequeryVtuTransaction',
    suffix: 'BearerAdmin',
    roles: ['finance'],
    upstream: true,
    method: 'POST',
    stepUpExempt: "applies the provider's own answer for a purchase; the operator chooses no outcome",
    purpose: 'requery one VTU transaction at its provider now and settle it',
    input: z.object({ id: uuidInput('id') }),
    output: z.object({ transaction: transactionOutput, providerStatus: z.string() }),
    errors: ['NOT_FOUND'],
    handler: async (i, ctx) => {
      ctx.audit.target('vtu_transaction', i.id);
      const out = await ctx.api.vtu.adminRequery(i.id);
      // Its reference too: the audit log is searched by a purchase's reference (issue 44).
      ctx.audit.target('vtu_transaction', out.transaction.reference);
      return out;
    },
  }),
  defineOperation({
    name: 'adminResolveVtuTransaction',
    suffix: 'BearerAdmin',
    roles: ['finance'],
    method: 'POST',
    purpose:
      'settle a processing VTU transaction by hand after confirming the outcome with the provider (failed refunds once); at or above the vtuResolution threshold (default: always) it waits for a second operator',
    gates: { stepUp: true },
    input: z.object({
      id: uuidInput('id'),
      outcome: lower('outcome', ['delivered', 'failed']),
      note: z
        .string({ error: 'note is required' })
        .trim()
        .min(5, 'note must say how the outcome was confirmed (5-500 characters)')
        .max(500, 'note must be at most 500 characters'),
      remains: z
        .number({ error: 'remains must be a number' })
        .int('remains must be a whole number')
        .min(0, 'remains must be 0 or more')
        .optional()
        .meta({
          description:
            'delivered in part (social orders): the quantity the provider did not deliver; its part is refunded with the settlement, once. Omitted: what the provider reports now',
        }),
    }),
    output: z.object({ ...submissionFields, transaction: transactionOutput }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async (i, ctx) => {
      const s = await ctx.api.approvals.submit(ctx.user.id, {
        action: 'vtu_resolution',
        transactionId: i.id,
        outcome: i.outcome,
        note: i.note,
        ...(i.remains !== undefined ? { remains: i.remains } : {}),
      });
      ctx.audit.target('vtu_transaction', i.id);
      if (s.approval) ctx.audit.target('approval_request', s.approval.id);
      const transaction = s.result
        ? (s.result as { transaction: z.input<typeof transactionOutput> }).transaction
        : await ctx.api.vtu.adminGetTransaction(i.id);
      ctx.audit.target('vtu_transaction', transaction.reference);
      return { status: s.status, approval: s.approval, transaction };
    },
  }),
  defineOperation({
    name: 'adminListStuckVtuTransactions',
    suffix: 'BearerAdmin',
    roles: ['finance', 'support'],
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
    handler: async (i, ctx) => ctx.api.vtu.adminListStuck(i.limit, i.offset),
  }),
];
