import { z } from 'zod';
import { pinInput, uuidInput } from '../../kernel/inputs.js';
import { naira, nairaAmount, toKobo } from '../../kernel/money.js';
import { operationsOf, type OpContext } from '../../platform/operation.js';
import type { Reads } from '../../platform/reads.js';
import { submissionFields } from '../approvals/api.js';
import type { EpinPriceSetting } from '../epins/api.js';
import { lower } from './inputs.js';
import { KIND_NAMES } from './kinds/index.js';
import { networkInput } from './kinds/common-inputs.js';
import { storedValue, type PriceSetting } from './level-admin.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['vtu', 'approvals', 'epins']);

const levelInput = z
  .string({ error: 'level is required' })
  .trim()
  .toLowerCase()
  .regex(/^[a-z][a-z0-9_]{1,30}$/, 'level must be a level id (2-31 lowercase letters, digits or _)');
const planInput = z.string().trim().min(1, 'plan must not be empty').max(120, 'plan is too long');
const reasonInput = z
  .string({ error: 'reason is required' })
  .trim()
  .min(3, 'reason must be at least 3 characters')
  .max(500, 'reason must be at most 500 characters');
const levelOut = z.object({ id: z.string(), name: z.string(), rank: z.number() });
const withKeys = levelOut.extend({
  apiKeys: z.boolean().meta({ description: "whether the level's customers may create live API keys (test keys need none)" }),
});
const myLevelOutput = z.object({
  level: withKeys,
  above: z.array(
    withKeys.extend({
      upgradeFee: naira.nullable().meta({ description: 'what an upgrade costs from the wallet; null: granted by the business only' }),
      how: z.enum(['upgrade', 'granted']),
    }),
  ),
});
const ruleOut = z
  .object({
    kind: z.enum(['flat', 'percent', 'fixed', 'discount']),
    value: z.number().meta({ description: 'naira (flat, fixed) or percent (percent: over wholesale; discount: off the face value)' }),
  })
  .nullable();
/** What a level's price is set for: a service kind, or `epin` (recharge cards, the epins module's prices). */
const priceService = z
  .string({ error: 'service is required' })
  .trim()
  .toLowerCase()
  .pipe(z.enum([...KIND_NAMES, 'epin'], { error: `service must be one of ${[...KIND_NAMES, 'epin'].join(', ')}` }));
/** The catalogue's services: those sold as plans, and recharge cards. */
const catalogueService = lower('service', ['data', 'cable', 'exam', 'epin']);

/**
 * A price: a markup (flat naira, percent) or a fixed price (naira, one plan only); at most 2 decimals. Recharge cards
 * (service `epin`) are priced as a level's discount off the face value (kind `discount`, percent, at most 50), for
 * every card at once; a card never sells below the seller's price.
 */
const priceFields = {
  level: levelInput,
  service: priceService,
  plan: planInput
    .optional()
    .meta({ description: "a plan's key (adminCatalogue's plan); omitted: the whole service (always for epin: every card)" }),
  kind: lower('kind', ['flat', 'percent', 'fixed', 'discount']),
  value: z.number({ error: 'value must be a number' }).finite().min(0, 'value must be 0 or more').max(10_000_000, 'value is too large'),
};
type PriceFields = { service: string; kind: string; plan?: string; value: number };
/** The rules across a price's fields, for the preview and the request alike. */
const priceRules = <T extends z.ZodType<PriceFields>>(schema: T) =>
  schema
    .refine((v) => v.kind !== 'percent' || v.value <= 100, { message: 'a percent markup must be at most 100', path: ['value'] })
    .refine((v) => (v.kind === 'discount') === (v.service === 'epin'), {
      message: 'recharge cards (epin), and only they, are priced as a discount off the face value (kind discount)',
      path: ['kind'],
    })
    .refine((v) => v.service !== 'epin' || !v.plan, { message: "an e-PIN price is the level's for every card: omit plan", path: ['plan'] })
    .refine((v) => v.kind !== 'discount' || v.value <= 50, { message: 'an e-PIN discount must be at most 50', path: ['value'] });
const priceInput = priceRules(
  z.object({
    ...priceFields,
    identifier: z
      .string()
      .trim()
      .toLowerCase()
      .max(40, 'identifier is too long')
      .optional()
      .meta({ description: 'cable: the provider whose plans the preview lists (dstv, gotv, startimes); required for cable' }),
  }),
).refine((v) => Math.abs(Math.round(v.value * 100) - v.value * 100) < 1e-6, {
  message: 'value must have at most 2 decimals',
  path: ['value'],
});
type PriceInput = Omit<z.infer<typeof priceInput>, 'identifier'>;
/** The setting a price asks for: vtu's (a plan's or a service's markup or fixed price) or epins' (a discount in basis points). */
function priceSetting(i: PriceInput): Extract<PriceSetting, { change: 'price' }> | EpinPriceSetting {
  if (i.kind === 'discount') return { change: 'epin', level: i.level, discount: Math.round(i.value * 100) };
  return { change: 'price', level: i.level, service: i.service, plan: i.plan ?? '', rule: i.kind, value: storedValue(i.kind, i.value) };
}
const changeOutput = z.object({
  level: z.string(),
  service: z.string(),
  plan: z.string().nullable(),
  changes: z.array(
    z.object({
      plan: z.string().nullable(),
      name: z.string(),
      wholesale: naira,
      before: naira.nullable().meta({ description: 'null: the level does not buy this now (epin: a level without an e-PIN price)' }),
      after: naira,
      margin: naira,
    }),
  ),
});

/** Issue 45: the customer's price level and its upgrade; the console's catalogue, plan switches and price settings. */
export const levelOperations = [
  defineOperation({
    name: 'getMyPriceLevel',
    suffix: 'BearerVTU',
    method: 'GET',
    scope: 'read',
    purpose:
      'my price level, and the levels above it with what an upgrade costs (or that the business grants it); each says whether it allows live API keys',
    input: z.object({}),
    output: myLevelOutput,
    handler: async (_i, ctx) => ctx.api.vtu.myPriceLevel(ctx.user.id),
  }),
  defineOperation({
    name: 'upgradePriceLevel',
    suffix: 'BearerVTU',
    method: 'POST',
    scope: 'purchase',
    rateLimit: 'money',
    gates: { money: true, pin: true },
    purpose: 'move up to a price level by paying its upgrade fee from the wallet (once: a repeat pays nothing)',
    input: z.object({ level: levelInput, pin: pinInput }),
    // Issue 45: a key's daily spend limit reserves the level's fee (none when the caller is at or above it).
    spend: async (i, ctx) => (await ctx.api.vtu.myPriceLevel(ctx.user.id)).above.find((l) => l.id === i.level)?.upgradeFee ?? null,
    output: myLevelOutput.extend({ paid: naira }),
    errors: ['INVALID_PIN', 'PIN_NOT_SET', 'PIN_LOCKED', 'INSUFFICIENT_FUNDS', 'LIMIT_EXCEEDED', 'CONFLICT'],
    handler: async (i, ctx) => ctx.api.vtu.upgradePriceLevel(ctx.user, i.level),
  }),
  defineOperation({
    name: 'adminCatalogue',
    suffix: 'BearerAdmin',
    roles: ['finance'],
    method: 'GET',
    purpose:
      "a service's plans at its first provider, or the recharge cards (epin) at their seller: wholesale, on sale or not, and each level's price and margin (epin: the levels that buy cards)",
    input: z.object({
      service: catalogueService,
      network: networkInput.optional(),
      identifier: z.string().trim().toLowerCase().max(40, 'identifier is too long').optional(),
    }),
    output: z.object({
      service: z.string(),
      provider: z.string(),
      levels: z.array(levelOut),
      items: z.array(
        z.object({
          plan: z.string(),
          name: z.string(),
          network: z.string().nullable(),
          wholesale: naira,
          enabled: z.boolean(),
          prices: z.array(z.object({ level: z.string(), name: z.string(), price: naira, margin: naira, rule: ruleOut })),
        }),
      ),
    }),
    errors: ['UPSTREAM_ERROR', 'SERVICE_UNAVAILABLE'],
    handler: async (i, ctx) => (i.service === 'epin' ? ctx.api.epins.adminCatalogue() : ctx.api.vtu.adminCatalogue(i.service, i)),
  }),
  defineOperation({
    name: 'adminSetPlanEnabled',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    gates: { stepUp: true },
    purpose: 'switch a plan off (not listed, quoted or sold) or on again',
    input: z.object({
      service: lower('service', ['data', 'cable', 'exam']),
      plan: planInput,
      enabled: z.boolean({ error: 'enabled must be true or false' }),
    }),
    output: z.object({ service: z.string(), plan: z.string(), enabled: z.boolean() }),
    handler: async (i, ctx) => {
      const { was, ...out } = await ctx.api.vtu.adminSetPlanEnabled(ctx.user.id, i);
      ctx.audit.target('vtu_plan', `${i.service}:${i.plan}`);
      ctx.audit.change({ enabled: was }, { enabled: out.enabled });
      return out;
    },
  }),
  defineOperation({
    name: 'adminPreviewPriceChange',
    suffix: 'BearerAdmin',
    roles: ['finance'],
    method: 'POST',
    stepUpExempt: 'a read: computes what a price change would change and changes nothing',
    purpose:
      "what a level's price change would change: each plan's price before and after, and the margin (a service sold by amount: ₦1,000)",
    input: priceInput,
    output: changeOutput,
    errors: ['UPSTREAM_ERROR', 'SERVICE_UNAVAILABLE'],
    handler: async ({ identifier, ...i }, ctx) => {
      const s = priceSetting(i);
      return s.change === 'epin' ? ctx.api.epins.adminPreviewPrice(s) : ctx.api.vtu.adminPreviewPriceChange(s, identifier);
    },
  }),
  defineOperation({
    name: 'adminRequestPriceChange',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    gates: { stepUp: true },
    purpose: "ask to change a level's price of a plan or a service: it waits for a second admin (four-eyes)",
    input: priceRules(z.object({ ...priceFields, reason: reasonInput })),
    output: z.object(submissionFields),
    errors: ['CONFLICT'],
    handler: async ({ reason, ...i }, ctx) => submitSetting(ctx, priceSetting(i), reason),
  }),
  defineOperation({
    name: 'adminRequestPriceLevel',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    gates: { stepUp: true },
    purpose: 'ask to add, rename or reorder a price level or change its upgrade fee: it waits for a second admin (four-eyes)',
    input: z.object({
      level: levelInput,
      name: z.string({ error: 'name is required' }).trim().min(2, 'name must be at least 2 characters').max(40, 'name is too long'),
      rank: z
        .number({ error: 'rank must be a number' })
        .int('rank must be a whole number')
        .min(0, 'rank must be 0 or more')
        .max(100, 'rank is too large'),
      upgradeFee: nairaAmount({ min: 1, max: 10_000_000 }).nullable().meta({ description: 'naira; null: granted only' }),
      apiKeys: z
        .boolean({ error: 'apiKeys must be true or false' })
        .optional()
        .meta({ description: "whether the level's customers may create live API keys; omitted: unchanged (a new level: no)" }),
      reason: reasonInput,
    }),
    output: z.object(submissionFields),
    errors: ['CONFLICT'],
    handler: async ({ reason, upgradeFee, apiKeys, ...i }, ctx) =>
      submitSetting(
        ctx,
        { change: 'level', ...i, upgradeFee: upgradeFee === null ? null : toKobo(upgradeFee), apiKeys: apiKeys ?? null },
        reason,
      ),
  }),
  defineOperation({
    name: 'adminRequestLevelGrant',
    suffix: 'BearerAdmin',
    roles: ['finance'],
    method: 'POST',
    gates: { stepUp: true },
    purpose: 'ask to move a customer to a price level (no fee): it waits for a second admin (four-eyes)',
    input: z.object({ userId: uuidInput('userId'), level: levelInput, reason: reasonInput }),
    output: z.object(submissionFields),
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ reason, ...i }, ctx) => submitSetting(ctx, { change: 'grant', ...i }, reason),
  }),
];

/** A price setting as a four-eyes request (approvals' `price_setting`), audited with its request. */
async function submitSetting(
  ctx: OpContext<Reads, 'vtu' | 'approvals' | 'epins'>,
  setting: PriceSetting | EpinPriceSetting,
  reason: string,
) {
  const s = await ctx.api.approvals.submit(ctx.user.id, { action: 'price_setting', setting, reason });
  if (s.approval) {
    ctx.audit.target('approval_request', s.approval.id);
    ctx.audit.change(null, { ...s.approval.details });
  }
  return { status: s.status, approval: s.approval };
}
