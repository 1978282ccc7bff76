import { z } from 'zod';
import { API_SCOPES } from '../../kernel/actor.js';
import { naira } from '../../kernel/money.js';
import { pageInput } from '../../kernel/paging.js';
import { operationsOf } from '../../platform/operation.js';
import { KEY_MODES } from './inputs.js';
import { RESELLER_USAGE_DAYS } from './resellers.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['developers']);

const usageDay = { day: z.string(), purchases: z.number(), succeeded: z.number(), spend: naira };
const consoleKey = z.object({
  id: z.string(),
  name: z.string(),
  mode: z.enum(KEY_MODES),
  prefix: z.string(),
  scopes: z.array(z.enum(API_SCOPES)),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  suspendedAt: z.string().nullable(),
  spentToday: naira,
  dailyLimit: naira.nullable(),
  usage: z
    .array(z.object(usageDay))
    .meta({ description: `purchases by Lagos day over the last ${RESELLER_USAGE_DAYS} days, newest first` }),
});
const webhookHealth = z.object({
  id: z.string(),
  mode: z.enum(KEY_MODES).meta({ description: "live: this service's endpoint; test: the test world's (test keys' events)" }),
  url: z.string(),
  events: z.array(z.string()),
  status: z.string().meta({ description: 'active, or disabled (after failing too long, or by the customer)' }),
  disabledReason: z.string().nullable(),
  disabledAt: z.string().nullable(),
  lastDelivery: z.object({ status: z.string(), responseStatus: z.number().nullable(), at: z.string().nullable() }).nullable(),
  failedLast7Days: z.number(),
  pending: z.number(),
});

/** Issue 45: the console's resellers, an admin's suspension of any key, and the developer page's usage by day. */
export const developersAdminOperations = [
  defineOperation({
    name: 'adminListResellers',
    suffix: 'BearerAdmin',
    method: 'GET',
    roles: ['support', 'finance'],
    purpose:
      "customers above the default price level and every customer holding an API key (any level), highest level first: their level, their API keys, live and test (each with its mode, live first: name, prefix, scopes, last used, suspended) with purchases by key and day, and their webhook endpoints' health, live and test (each with its mode, live first)",
    input: z.object(pageInput),
    output: z.object({
      total: z.number(),
      items: z.array(
        z.object({
          userId: z.string(),
          email: z.string(),
          level: z.object({ id: z.string(), name: z.string(), rank: z.number(), source: z.string() }),
          keys: z.array(consoleKey),
          webhooks: z.array(webhookHealth),
        }),
      ),
    }),
    handler: async (i, ctx) => ctx.api.developers.listResellers(i),
  }),
  defineOperation({
    name: 'adminSuspendApiKey',
    suffix: 'BearerAdmin',
    method: 'POST',
    roles: [],
    gates: { stepUp: true },
    purpose: 'suspend any API key, live or test (every request with it is refused, 403 KEY_SUSPENDED) or resume it (suspended: false)',
    input: z.object({
      keyId: z.string({ error: 'keyId is required' }).min(1, 'keyId is required').max(64, 'keyId is too long'),
      suspended: z.boolean({ error: 'suspended must be true or false' }),
    }),
    output: z.object({ keyId: z.string(), suspended: z.boolean(), suspendedAt: z.string().nullable() }),
    errors: ['NOT_FOUND'],
    handler: async (i, ctx) => {
      const r = await ctx.api.developers.setKeySuspended(ctx.user.id, i.keyId, i.suspended);
      ctx.audit.target('api_key', i.keyId);
      ctx.audit.change({ suspended: r.wasSuspended, userId: r.userId }, { suspended: i.suspended, userId: r.userId });
      return { keyId: r.key.id, suspended: r.key.suspendedAt !== null, suspendedAt: r.key.suspendedAt };
    },
  }),
  defineOperation({
    name: 'getMyApiUsage',
    suffix: 'BearerDevelopers',
    method: 'GET',
    scope: 'session',
    purpose: "purchases and spend by API key and Lagos day over the last `days` days (1-90, default 14): the caller's live and test keys",
    input: z.object({
      days: z.coerce
        .number()
        .int('days must be a whole number')
        .min(1, 'days must be 1 or more')
        .max(90, 'days must be at most 90')
        .default(14),
    }),
    output: z.object({
      items: z.array(z.object({ ...usageDay, keyId: z.string(), name: z.string(), prefix: z.string(), mode: z.enum(KEY_MODES) })),
    }),
    handler: async (i, ctx) => ({ items: await ctx.api.developers.myUsage(ctx.user, i.days) }),
  }),
];
