import { z } from 'zod';
import { operationsOf, type AnyOperation } from '../../platform/operation.js';
import { pageInput, pageOutput } from '../../kernel/paging.js';
import { uuidInput } from '../../kernel/inputs.js';
import { historyFilterInput } from '../../kernel/days.js';
import { nairaAmount } from '../../kernel/money.js';
import { vtuAdminOperations } from './admin-operations.js';
import { levelOperations } from './level-operations.js';
import { routingOperations } from './routing-operations.js';
import { CATALOGUE_TTL_MS } from './catalogue.js';
import { lower, providerInput, PURCHASE_ERRORS, quoteOutput, withoutPin } from './inputs.js';
import { KINDS, serviceInput } from './kinds/index.js';
import type { KindOperation, ServiceKind } from './kinds/kind.js';
import { quotePurchaseInput, transactionOutput, txOut } from './view.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['vtu']);

/** Spec 4.5 (suffix BearerVTU, all 21 also at /api/v1) plus listEducationPins and the operator operations. */
const SUFFIX = 'BearerVTU';
const CACHE_SECONDS = CATALOGUE_TTL_MS / 1000; // spec rule 7: clients may cache catalogues for 30 minutes

/** A kind's operation (kinds/kind.ts KindOperation) as a vtu operation: its handler gets the kind's context. */
function kindOperation(kind: ServiceKind, op: KindOperation): AnyOperation {
  const { catalogue, handler, ...def } = op;
  return defineOperation({
    ...def,
    suffix: SUFFIX,
    // Issue 45: an API key reads the look-ups with `read`; the kinds' own money operations (an eSIM top-up) need `purchase`.
    scope: def.gates?.money ? 'purchase' : 'read',
    ...(catalogue ? { cacheSeconds: CACHE_SECONDS } : {}),
    handler: async (i, ctx) =>
      handler(i, { kind: await ctx.api.vtu.kindFor(kind.name, ctx.user.id), user: ctx.user, vtu: ctx.api.vtu.core }),
  });
}

/** A kind's purchase operation: the PIN, KYC Tier 1 and money gates, the money rate class, the shared purchase path. */
function purchaseOperation(kind: ServiceKind): AnyOperation {
  const p = kind.purchase;
  return defineOperation({
    name: p.name,
    suffix: SUFFIX,
    method: 'POST',
    ...(p.versioned ? { versioned: true } : {}),
    purpose: p.purpose,
    scope: 'purchase',
    rateLimit: 'money',
    gates: { money: true, pin: true, kycTier: 1 },
    ...(p.precheck ? { precheck: p.precheck } : {}),
    input: p.input,
    output: txOut,
    errors: [...(p.errors ?? []), ...PURCHASE_ERRORS],
    handler: async (i, ctx) => ({
      transaction: await ctx.api.vtu.purchase(ctx.user, kind.name, withoutPin(i as { pin: string })),
    }),
  });
}

const catalogueOps = KINDS.flatMap((k) => k.operations.filter((op) => op.catalogue).map((op) => kindOperation(k, op)));
const otherKindOps = KINDS.flatMap((k) => k.operations.filter((op) => !op.catalogue).map((op) => kindOperation(k, op)));

export const vtuOperations = [
  // ---------- catalogues (each kind's) ----------
  ...catalogueOps,

  // ---------- quote ----------
  defineOperation({
    name: 'quotePrice',
    suffix: SUFFIX,
    method: 'POST',
    scope: 'read',
    versioned: true,
    purpose: 'retail price after markup',
    input: z.object({ service: serviceInput, provider: providerInput.optional(), wholesale: nairaAmount({ max: 10_000_000 }) }),
    output: z.object({ service: z.string(), provider: z.string(), wholesale: z.number(), markup: z.number(), retail: z.number() }),
    handler: async (i, ctx) => ctx.api.vtu.quote(i),
  }),
  defineOperation({
    name: 'quotePurchase',
    suffix: SUFFIX,
    method: 'POST',
    scope: 'read',
    purpose:
      'the price of a purchase before paying (extension): amount bought, fee and total the wallet pays; electricity units come with the token',
    input: quotePurchaseInput,
    output: quoteOutput,
    errors: ['UPSTREAM_ERROR', 'SERVICE_UNAVAILABLE'],
    handler: async (i, ctx) => ctx.api.vtu.quotePurchase(i, ctx.user.id),
  }),
  // ---------- each kind's verification and look-ups ----------
  ...otherKindOps,

  // ---------- purchases (spec 4.5: quote, collect PIN, purchase), one per kind ----------
  ...KINDS.map(purchaseOperation),

  // ---------- the caller's transactions ----------
  defineOperation({
    name: 'listMyVtuTransactions',
    suffix: SUFFIX,
    method: 'GET',
    versioned: true,
    purpose: 'recent VTU transactions of the caller; from..to (Lagos days, at most 366) and a search (q) narrow them',
    input: z.object({
      ...pageInput,
      status: lower('status', ['processing', 'success', 'failed']).optional(),
      service: serviceInput.optional(),
      ...historyFilterInput,
    }),
    output: pageOutput(transactionOutput),
    handler: async (i, ctx) => ctx.api.vtu.listMine(ctx.user.id, i),
  }),
  defineOperation({
    name: 'getMyVtuTransaction',
    suffix: SUFFIX,
    method: 'POST',
    scope: 'read',
    versioned: true,
    purpose: 'fetch one VTU transaction',
    input: z.object({ id: uuidInput('id') }),
    output: txOut,
    errors: ['NOT_FOUND'],
    handler: async (i, ctx) => ({ transaction: await ctx.api.vtu.getMine(ctx.user.id, i.id) }),
  }),

  ...vtuAdminOperations,
  ...levelOperations,
  ...routingOperations,
];
