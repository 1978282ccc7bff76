import { z } from 'zod';
import { pinInput } from '../../kernel/inputs.js';
import { naira } from '../../kernel/money.js';
import { pageInput, pageOutput } from '../../kernel/paging.js';
import { fileOutput, operationsOf } from '../../platform/operation.js';
import { batchIdInput, buyEpinsFields, EPIN_NETWORKS, markSoldFields } from './inputs.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['epins']);

const batchOutput = z
  .object({
    id: z.string(),
    network: z.enum(EPIN_NETWORKS),
    denomination: naira.meta({ description: "one card's face value" }),
    quantity: z.number(),
    delivered: z.number().meta({ description: 'cards the seller delivered' }),
    sold: z.number().meta({ description: 'cards marked sold' }),
    status: z.enum(['processing', 'delivered', 'partial', 'failed']),
    unitPrice: naira.meta({ description: "one card's price at the buyer's level" }),
    amount: naira.meta({ description: 'what the wallet paid for the whole batch' }),
    refunded: naira.meta({ description: 'what came back for the cards not delivered' }),
    paid: naira.meta({ description: 'amount less refunded' }),
    priceLevel: z.string(),
    businessName: z.string(),
    loadCode: z.string().meta({ description: "the network's load code printed on the cards, e.g. *555*PIN#" }),
    failureReason: z.string().nullable(),
    createdAt: z.string(),
    settledAt: z.string().nullable(),
  })
  .meta({ id: 'EpinBatch' });
const cardOutput = z
  .object({ seq: z.number(), serial: z.string(), pin: z.string(), soldAt: z.string().nullable() })
  .meta({ id: 'EpinCard' });

/** Recharge card printing (issue 45): buy a batch of airtime e-PINs, list, read, download and mark cards sold. */
export const epinsOperations = [
  defineOperation({
    name: 'buyEpins',
    suffix: 'BearerVTU',
    method: 'POST',
    scope: 'purchase',
    rateLimit: 'money',
    gates: { money: true, pin: true, kycTier: 1 },
    purpose:
      "buy a batch of airtime e-PINs (1-1,000 cards of one network and face value) at the caller's price level, paid from the wallet in one posting; what the seller does not deliver is refunded once",
    input: z.object({ ...buyEpinsFields, pin: pinInput }),
    // Issue 45: a key's daily spend limit reserves the batch's price (no amount in the input).
    spend: async (i, ctx) => ctx.api.epins.cost(ctx.user.id, i),
    output: z.object({ batch: batchOutput, amount: naira.meta({ description: 'what the wallet paid, less any refund so far' }) }),
    errors: [
      'FORBIDDEN',
      'INSUFFICIENT_FUNDS',
      'LIMIT_EXCEEDED',
      'INVALID_PIN',
      'PIN_NOT_SET',
      'PIN_LOCKED',
      'UPSTREAM_ERROR',
      'SERVICE_UNAVAILABLE',
    ],
    handler: async ({ pin: _pin, ...i }, ctx) => ctx.api.epins.buy(ctx.user, i),
  }),
  defineOperation({
    name: 'listEpinBatches',
    suffix: 'BearerVTU',
    method: 'GET',
    scope: 'read',
    purpose: "the caller's batches of recharge cards, newest first",
    input: z.object({ ...pageInput }),
    output: pageOutput(batchOutput),
    handler: async (i, ctx) => ctx.api.epins.list(ctx.user.id, i),
  }),
  defineOperation({
    name: 'getEpinBatch',
    suffix: 'BearerVTU',
    method: 'GET',
    scope: 'read',
    purpose: "one of the caller's batches with its cards' PINs and serials (a batch still processing is asked about first)",
    input: z.object({ id: batchIdInput }),
    output: z.object({ batch: batchOutput, cards: z.array(cardOutput) }),
    handler: async (i, ctx) => ctx.api.epins.get(ctx.user.id, i.id),
  }),
  defineOperation({
    name: 'downloadEpinBatch',
    suffix: 'BearerVTU',
    method: 'GET',
    scope: 'read',
    purpose: "one of the caller's batches as a print-ready PDF of cards (A4, 24 a page) or as CSV",
    download: ['application/pdf', 'text/csv'],
    input: z.object({ id: batchIdInput, format: z.enum(['pdf', 'csv'], { error: 'format must be pdf or csv' }).default('pdf') }),
    output: fileOutput,
    errors: ['CONFLICT'],
    handler: async (i, ctx) => ctx.api.epins.download(ctx.user.id, i.id, i.format),
  }),
  defineOperation({
    name: 'markEpinsSold',
    suffix: 'BearerVTU',
    method: 'POST',
    scope: 'purchase',
    purpose: 'mark cards of one of the caller’s batches sold (or, with sold: false, not sold), by serial',
    input: z.object(markSoldFields),
    output: z.object({ batch: batchOutput, changed: z.number() }),
    handler: async (i, ctx) => ctx.api.epins.markSold(ctx.user.id, i),
  }),
];
