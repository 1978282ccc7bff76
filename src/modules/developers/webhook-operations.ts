import { z } from 'zod';
import { pageInput } from '../../kernel/paging.js';
import { operationsOf } from '../../platform/operation.js';
import { KEY_MODES, WEBHOOK_EVENTS } from './inputs.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['webhooks']);

const endpointOutput = z
  .object({
    id: z.string(),
    mode: z.enum(KEY_MODES).meta({ description: "live: takes the live service's events; test: only test keys' events, from test mode" }),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    status: z.enum(['active', 'disabled']),
    disabledReason: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'WebhookEndpoint' });
const deliveryOutput = z
  .object({
    id: z.string(),
    mode: z.enum(KEY_MODES),
    endpointId: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attempts: z.number(),
    responseStatus: z.number().nullable(),
    responseMs: z.number().nullable().meta({ description: 'how long the endpoint took to answer the last attempt' }),
    error: z.string().nullable(),
    createdAt: z.string(),
    lastAttemptAt: z.string().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });
const idInput = z.object({ id: z.string().min(1).max(80) });
const modeInput = z.enum(KEY_MODES).default('live');

/** The developer page's webhook endpoints and delivery log (issue 45): a person's session only (scope `session`). */
export const webhookOperations = [
  defineOperation({
    name: 'createWebhookEndpoint',
    suffix: 'BearerDevelopers',
    method: 'POST',
    purpose:
      'add an endpoint for webhook events of one mode (live, or test: test keys’ events only); its signing secret is in this answer only (Webhook-Signature: t=...,v1=...)',
    input: z.object({
      url: z.string().min(1).max(2000),
      events: z.array(z.enum(WEBHOOK_EVENTS)).min(1),
      mode: modeInput.meta({ description: 'live (default) or test' }),
    }),
    output: z.object({ endpoint: endpointOutput, secret: z.string() }),
    gates: { stepUp: true },
    rateLimit: 'strict',
    errors: ['LIMIT_EXCEEDED'],
    handler: async (input, ctx) => ctx.api.webhooks.createEndpoint(ctx.user, input),
  }),
  defineOperation({
    name: 'listWebhookEndpoints',
    suffix: 'BearerDevelopers',
    method: 'GET',
    purpose: "the caller's webhook endpoints, live and test",
    scope: 'session',
    input: z.object({}),
    output: z.object({ endpoints: z.array(endpointOutput) }),
    handler: async (_input, ctx) => ({ endpoints: await ctx.api.webhooks.listEndpoints(ctx.user) }),
  }),
  defineOperation({
    name: 'disableWebhookEndpoint',
    suffix: 'BearerDevelopers',
    method: 'POST',
    purpose: 'stop sending events to one of the caller’s endpoints',
    input: idInput,
    output: z.object({ endpoint: endpointOutput }),
    handler: async (input, ctx) => ({ endpoint: await ctx.api.webhooks.disableEndpoint(ctx.user, input.id) }),
  }),
  defineOperation({
    name: 'listWebhookDeliveries',
    suffix: 'BearerDevelopers',
    method: 'GET',
    purpose:
      'the delivery log of the caller’s endpoints of one mode (live by default), newest first: status, attempts, response status and time',
    scope: 'session',
    input: z.object({ endpointId: z.string().max(80).optional(), mode: modeInput, ...pageInput }),
    output: z.object({ items: z.array(deliveryOutput) }),
    handler: async (input, ctx) => ({ items: await ctx.api.webhooks.listDeliveries(ctx.user, input) }),
  }),
  defineOperation({
    name: 'resendWebhookDelivery',
    suffix: 'BearerDevelopers',
    method: 'POST',
    purpose: 'send one delivery again now',
    input: idInput,
    output: z.object({ delivery: deliveryOutput }),
    handler: async (input, ctx) => ({ delivery: await ctx.api.webhooks.resend(ctx.user, input.id) }),
  }),
];
