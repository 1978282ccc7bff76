import { z } from 'zod';
import type { WebhookEvent } from './inputs.js';
import { DELIVERY_ATTEMPTS } from './webhook-model.js';

/**
 * The outbound webhooks as the API reference describes them (issue 45, http/openapi.ts `webhooks`): each event's body,
 * `{id, type, created, data}`, with its `data` as webhook-events.ts writes it, and how a delivery is signed. The
 * verification code (Node, PHP, Python) is in docs/resellers.md, "Verifying a signature".
 */

const naira = (description: string) => z.number().meta({ description: `naira, at most 2 decimals: ${description}` });
const service = z.string().meta({ description: 'the purchase kind (airtime, data, cable, electricity, ...)' });
const transactionId = z.string().meta({ description: "the purchase's id, as its purchase operation answered it" });
const refund = (status: 'failed' | 'success', description: string) =>
  z.object({
    transactionId,
    reference: z.string().meta({ description: "the purchase's reference (vtu_...)" }),
    service,
    amount: naira('what the wallet paid for the purchase'),
    refunded: naira(description),
    status: z.literal(status),
  });

export const OUTBOUND_WEBHOOKS: readonly { event: WebhookEvent; when: string; data: z.ZodObject }[] = [
  {
    event: 'purchase.succeeded',
    when: 'a purchase was delivered',
    data: z.object({ transactionId, service, amount: naira('what the wallet paid') }),
  },
  {
    event: 'purchase.failed',
    when: 'a purchase failed and the whole amount is back in the wallet (at once, after a requery, or by an operator)',
    data: refund('failed', 'back in the wallet: equal to amount'),
  },
  {
    event: 'purchase.refunded',
    when: "part of a delivered purchase came back to the wallet (a social order's undelivered part, a cancelled flight's refund)",
    data: refund('success', 'back in the wallet; the purchase stays delivered'),
  },
  {
    event: 'wallet.credited',
    when: 'money arrived in the wallet from outside it: a top-up, a bank transfer to the dedicated account, a transfer received',
    data: z.object({
      amount: naira('what was credited'),
      source: z.enum(['topup', 'dva', 'transfer', 'adjustment', 'savings', 'other']),
      reference: z.string().meta({ description: "the credit's reference (a top-up's, a transfer's)" }),
    }),
  },
  {
    event: 'epin.batch_ready',
    when: 'a batch of recharge cards settled: its cards are ready, and what was not delivered is back in the wallet',
    data: z.object({
      batchId: z.string(),
      quantity: z.number().int().meta({ description: 'cards bought' }),
      delivered: z.number().int().meta({ description: 'cards the seller delivered' }),
      refunded: naira('back in the wallet for the cards not delivered'),
      status: z.enum(['delivered', 'partial', 'failed']),
    }),
  },
];

/** The body of a delivery of `event`: the envelope around its data. */
export const webhookBodySchema = (w: (typeof OUTBOUND_WEBHOOKS)[number]) =>
  z.object({
    id: z.string().meta({ description: `the event's id (also the Webhook-Id header), e.g. evt_${w.event.replace('.', '_')}_...` }),
    type: z.literal(w.event),
    created: z.string().meta({ description: 'when the event happened (ISO 8601)' }),
    data: w.data,
  });

/** How every delivery is made and signed, for the reference's words. */
export const WEBHOOK_DELIVERY_TEXT =
  'A POST of one JSON event to each of your endpoints that takes it (createWebhookEndpoint), signed with that ' +
  "endpoint's own secret (whsec_..., shown once): `Webhook-Signature: t=<unix seconds>,v1=<hex>`, where <hex> is the " +
  'HMAC-SHA256 of `<t>.<raw body>`. Verify it over the raw body in constant time and refuse a timestamp older than 5 ' +
  'minutes (a replay); skip an event whose Webhook-Id you have handled. Answer 2xx within 10 seconds; anything else ' +
  `is retried with backoff (1 minute, doubling; ${DELIVERY_ATTEMPTS} attempts, about 3 days), logged ` +
  '(listWebhookDeliveries) and can be resent (resendWebhookDelivery). Test endpoints get the events of test keys only. ' +
  'Verification in Node, PHP and Python: docs/resellers.md, "Verifying a signature".';
