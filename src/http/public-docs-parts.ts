import type { z } from 'zod';

/**
 * The parts the public endpoints' OpenAPI entries (public-docs.ts) are written with: their type, the answer and
 * body helpers, and the webhooks' event schemas.
 */
export type Schema = Record<string, any>;
export interface PublicDoc {
  method: 'GET' | 'POST';
  path: string;
  webhook?: string;
  body?: { name: string; schema: z.ZodType };
  schemas?: Record<string, Schema>;
  operation: Schema;
}

export const PUBLIC_TAGS: Record<string, string> = {
  Public: 'Endpoints called without an access token: the processor webhook, client reports, links in e-mails.',
  Platform: 'Health, readiness, metrics and the keys that verify tokens and receipts.',
};

export const json = (schema: Schema, example?: unknown) => ({
  'application/json': { schema, ...(example !== undefined ? { example } : {}) },
});
export const okAnswer = (description: string, extra: Schema = {}, example: Record<string, unknown> = {}) => ({
  description,
  content: json({ type: 'object', required: ['ok'], properties: { ok: { const: true }, ...extra } }, { ok: true, ...example }),
});
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const plainBody = (name: string, example: unknown) => ({
  required: true,
  description: 'Plain JSON (the `{"data": {...}}` envelope is accepted too); unknown fields are refused.',
  content: json(ref(name), example),
});

export const chargeEvent: Schema = {
  type: 'object',
  description:
    'A processor event (Paystack-compatible shape). Only `charge.success` credits a wallet; other events are stored and ignored.',
  required: ['event', 'data'],
  properties: {
    event: { type: 'string', examples: ['charge.success'] },
    data: {
      type: 'object',
      required: ['reference', 'amount', 'status'],
      properties: {
        reference: { type: 'string', description: 'the top-up intent reference, or the processor reference of a bank transfer' },
        amount: { type: 'integer', description: 'kobo', minimum: 1 },
        currency: { type: 'string', examples: ['NGN'] },
        status: { type: 'string', examples: ['success'] },
        channel: { type: 'string', description: '`dedicated_nuban` for a transfer into a dedicated virtual account', examples: ['card'] },
        paid_at: { type: 'string', format: 'date-time' },
        customer: { type: 'object', properties: { email: { type: 'string' }, customer_code: { type: 'string' } } },
        authorization: { type: 'object', properties: { receiver_bank_account_number: { type: 'string' } } },
      },
    },
  },
};

export const airtimeCashEvent: Schema = {
  type: 'object',
  description: "Provider C's word on an airtime-to-cash request. Only `received` credits the wallet (once per request).",
  required: ['request_id', 'status'],
  properties: {
    request_id: { type: 'string', description: 'our request id at the provider' },
    status: { type: 'string', enum: ['awaiting', 'received', 'expired', 'failed'] },
    amount_received: { type: 'string', description: 'naira of airtime received (with `received`)' },
    amount_settled: { type: 'string', description: 'naira the provider credits our float with (with `received`)' },
    transactionId: { type: 'string', description: "the provider's reference" },
  },
};
