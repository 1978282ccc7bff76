import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { NEEDLE_RE } from './service.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['receipts']);

const receiptOutput = z
  .object({
    version: z.literal(1),
    needle: z.string(),
    issuer: z.string(),
    keyId: z.string(),
    reference: z.string(),
    type: z.string(),
    description: z.string(),
    direction: z.enum(['debit', 'credit']),
    amount: z.string(),
    currency: z.literal('NGN'),
    status: z.string(),
    transactionAt: z.string(),
    issuedAt: z.string(),
    service: z.string().optional(),
    recipient: z.string().optional(),
    network: z.string().optional(),
    planId: z.string().optional(),
    product: z.string().optional(),
    lines: z
      .array(z.object({ label: z.string(), value: z.string(), mask: z.boolean().optional() }))
      .optional()
      .meta({ description: "the service's own lines (an eSIM's ICCID, a flight's PNR)" }),
  })
  .meta({ id: 'Receipt' });

export const receiptOperations = [
  defineOperation({
    name: 'signReceipt',
    suffix: 'BearerReceipts',
    method: 'POST',
    purpose: "sign a receipt for one of the caller's completed transactions (Ed25519; key at /.well-known/receipt-key)",
    input: z.object({
      reference: z
        .string({ error: 'reference is required' })
        .trim()
        .min(3, 'reference must be at least 3 characters')
        .max(200, 'reference must be at most 200 characters (a ledger reference, top-up reference or VTU transaction id)'),
    }),
    output: z.object({ needle: z.string(), receipt: receiptOutput, signature: z.string() }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async (input, ctx) => ctx.api.receipts.sign(ctx.user.id, input.reference),
  }),
  defineOperation({
    name: 'verifyReceipt',
    suffix: 'PublicReceipts',
    method: 'GET',
    purpose: 'public receipt verification lookup: the masked receipt and whether its signature holds',
    rateLimit: 'auth',
    input: z.object({
      needle: z
        .string({ error: 'needle is required' })
        .trim()
        .toUpperCase()
        .regex(NEEDLE_RE, 'needle must be the 12-character code printed on the receipt'),
    }),
    output: z.object({ valid: z.boolean(), receipt: receiptOutput, keyId: z.string() }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ctx.api.receipts.verify(input.needle),
  }),
];
