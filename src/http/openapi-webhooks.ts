import { z } from 'zod';
import { OUTBOUND_WEBHOOKS, WEBHOOK_DELIVERY_TEXT, webhookBodySchema } from '../modules/developers/api.js';

type Schema = Record<string, any>;
const SCHEMAS = '#/components/schemas/';
const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The signed events sent to a reseller's endpoints (issue 45, modules/developers webhook-docs.ts): one `webhooks` entry
 * per event, its body a component (`Webhook<Event>`), with the Webhook-Id and Webhook-Signature headers.
 */
export function addOutboundWebhooks(schemas: Record<string, Schema>, webhooks: Record<string, Schema>) {
  for (const w of OUTBOUND_WEBHOOKS) {
    const name = `Webhook${w.event.split(/[._]/).map(pascal).join('')}`;
    const { $schema: _, ...schema } = z.toJSONSchema(webhookBodySchema(w), { io: 'output' }) as Schema;
    schemas[name] = schema;
    webhooks[w.event] = {
      post: {
        operationId: `${w.event.replace(/[._](\w)/g, (_m: string, c: string) => c.toUpperCase())}Webhook`,
        summary: `${pascal(w.event)}: ${w.when}`.slice(0, 120),
        description: `Sent when ${w.when}. ${WEBHOOK_DELIVERY_TEXT}`,
        tags: ['Developers'],
        security: [],
        parameters: [
          {
            name: 'Webhook-Id',
            in: 'header',
            required: true,
            description: "The event's id, the same on every retry and resend: skip one you have handled.",
            schema: { type: 'string' },
          },
          {
            name: 'Webhook-Signature',
            in: 'header',
            required: true,
            description: "`t=<unix seconds>,v1=<hex>`: the HMAC-SHA256 of `<t>.<raw body>` with the endpoint's secret.",
            schema: { type: 'string', pattern: '^t=\\d+,v1=[0-9a-f]{64}$' },
          },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `${SCHEMAS}${name}` } } } },
        responses: {
          '200': { description: 'Received (any 2xx within 10 seconds); anything else is retried with backoff for about 3 days.' },
        },
      },
    };
  }
}
