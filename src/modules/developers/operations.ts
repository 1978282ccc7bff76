import { z } from 'zod';
import { API_SCOPES } from '../../kernel/actor.js';
import { naira, nairaAmount } from '../../kernel/money.js';
import { operationsOf } from '../../platform/operation.js';
import { createApiKeyInput, KEY_MODES, overlapHoursInput } from './inputs.js';
import { TEST_FUNDING_MAX_NAIRA } from './test-mode.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['developers']);

const apiKeyOutput = z
  .object({
    id: z.string(),
    name: z.string(),
    mode: z.enum(KEY_MODES),
    prefix: z.string().meta({ description: 'the start of the secret, to tell keys apart' }),
    scopes: z.array(z.enum(API_SCOPES)),
    allowedIps: z.array(z.string()).nullable().meta({ description: 'null: any address' }),
    dailyLimit: naira.nullable().meta({ description: 'naira a day this key may spend; null: only the wallet’s own limits' }),
    spentToday: naira,
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    expiresAt: z.string().nullable().meta({ description: 'set when the key was rolled: it works until then' }),
    revokedAt: z.string().nullable(),
    rolledFrom: z.string().nullable(),
    suspendedAt: z.string().nullable().meta({ description: 'set while the business has suspended the key (refused with KEY_SUSPENDED)' }),
  })
  .meta({ id: 'ApiKey' });
const keyIdInput = z.object({ id: z.string().min(1).max(64) });
const madeKeyOutput = z.object({
  key: apiKeyOutput,
  secret: z.string().meta({ description: 'the key itself, shown this once: it is stored only as a hash' }),
});

/** The developer page's operations (issue 45): a person's session only, never a key (scope `session`). */
export const developersOperations = [
  defineOperation({
    name: 'createApiKey',
    suffix: 'BearerDevelopers',
    method: 'POST',
    purpose:
      'create an API key (the secret is in this answer only); test keys need KYC Tier 1, live keys Tier 2 and a price level that allows them (getMyPriceLevel)',
    input: createApiKeyInput,
    output: madeKeyOutput,
    gates: { kycTier: 1, stepUp: true },
    rateLimit: 'strict',
    errors: ['KYC_TIER_REQUIRED', 'FORBIDDEN', 'LIMIT_EXCEEDED'],
    handler: async (input, ctx) => ctx.api.developers.createKey(ctx.user, input),
  }),
  defineOperation({
    name: 'listApiKeys',
    suffix: 'BearerDevelopers',
    method: 'GET',
    purpose: "list the caller's API keys, revoked and rolled ones included (never their secrets)",
    scope: 'session',
    input: z.object({}),
    output: z.object({ keys: z.array(apiKeyOutput) }),
    handler: async (_input, ctx) => ({ keys: await ctx.api.developers.listKeys(ctx.user) }),
  }),
  defineOperation({
    name: 'revokeApiKey',
    suffix: 'BearerDevelopers',
    method: 'POST',
    purpose: 'revoke one of the caller’s API keys at once',
    input: keyIdInput,
    output: z.object({ key: apiKeyOutput }),
    handler: async (input, ctx) => ({ key: await ctx.api.developers.revokeKey(ctx.user, input.id) }),
  }),
  defineOperation({
    name: 'rollApiKey',
    suffix: 'BearerDevelopers',
    method: 'POST',
    purpose: 'replace an API key by a new secret with the same settings; the old one works for overlapHours more (0-72)',
    input: keyIdInput.extend({ overlapHours: overlapHoursInput.default(24) }),
    output: madeKeyOutput,
    gates: { stepUp: true },
    rateLimit: 'strict',
    handler: async (input, ctx) => ctx.api.developers.rollKey(ctx.user, input.id, input.overlapHours),
  }),
  defineOperation({
    name: 'getTestWallet',
    suffix: 'BearerDevelopers',
    method: 'GET',
    purpose: "the balance of the caller's test wallet (test mode: the simulators' world, never live money)",
    scope: 'session',
    input: z.object({}),
    output: z.object({ balance: naira }),
    handler: async (_input, ctx) => ctx.api.developers.testWallet(ctx.user),
  }),
  defineOperation({
    name: 'fundTestWallet',
    suffix: 'BearerDevelopers',
    method: 'POST',
    purpose: "add test money to the caller's test wallet (test mode only: nothing live is touched)",
    input: z.object({ amount: nairaAmount({ min: 1, max: TEST_FUNDING_MAX_NAIRA }) }),
    output: z.object({ balance: naira }),
    rateLimit: 'strict',
    handler: async (input, ctx) => ctx.api.developers.testWallet(ctx.user, input.amount),
  }),
];
