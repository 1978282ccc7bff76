import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { pageInput, pageOutput } from '../../kernel/paging.js';
import { uuidInput } from '../../kernel/inputs.js';
import { nairaAmount, toKobo, naira } from '../../kernel/money.js';
import { pinInput } from '../../kernel/inputs.js';
import { subscriptionAccountInput } from './inputs.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['subscriptions']);

const statusEnum = z.enum(['pending', 'processing', 'fulfilled', 'failed', 'cancelled'], {
  error: 'status must be pending, processing, fulfilled, failed or cancelled',
});
const categoryEnum = z.enum(['streaming', 'social'], { error: 'category must be streaming or social' });

const planOutput = z
  .object({
    id: z.string(),
    service: z.string(),
    category: categoryEnum,
    name: z.string(),
    price: naira,
    active: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'SubscriptionPlan' });

const orderOutput = z
  .object({
    id: z.string(),
    reference: z.string(),
    planId: z.string(),
    service: z.string(),
    category: z.string(),
    planName: z.string(),
    account: z.string(),
    amount: naira,
    status: statusEnum,
    note: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'SubscriptionOrder' });
const adminOrderOutput = orderOutput.extend({ userId: z.string() });

const serviceInput = z
  .string({ error: 'service is required' })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9_]{2,40}$/, 'service must be 2-40 characters of a-z, 0-9 and _ (e.g. netflix, spotify, instagram_followers)');
const nameInput = z
  .string({ error: 'name is required' })
  .trim()
  .min(2, 'name must be at least 2 characters')
  .max(120, 'name must be at most 120 characters');
const planPrice = nairaAmount({ min: 50, max: 1_000_000 });

export const subscriptionOperations = [
  defineOperation({
    name: 'listSubscriptionPlans',
    suffix: 'BearerSubscriptions',
    method: 'GET',
    purpose: 'streaming and social plans on offer with their prices',
    input: z.object({ category: categoryEnum.optional(), service: serviceInput.optional() }),
    output: z.object({ items: z.array(planOutput) }),
    handler: async (input, ctx) => ctx.api.subscriptions.listPlans({ includeInactive: false, ...input }),
  }),
  defineOperation({
    name: 'submitSubscriptionOrder',
    suffix: 'BearerSubscriptions',
    method: 'POST',
    purpose: 'submit a subscription order (PIN required); the wallet is debited and an operator fulfils it',
    rateLimit: 'money',
    gates: { money: true, pin: true },
    input: z.object({
      planId: uuidInput('planId'),
      account: subscriptionAccountInput,
      amount: nairaAmount().optional(),
      pin: pinInput,
    }),
    output: z.object({ order: orderOutput }),
    errors: ['INVALID_PIN', 'PIN_NOT_SET', 'PIN_LOCKED', 'INSUFFICIENT_FUNDS', 'LIMIT_EXCEEDED', 'PRICE_CHANGED', 'NOT_FOUND', 'CONFLICT'],
    handler: async (input, ctx) => ({
      order: await ctx.api.subscriptions.submit(ctx.user, {
        planId: input.planId,
        account: input.account,
        amount: input.amount === undefined ? undefined : toKobo(input.amount),
      }),
    }),
  }),
  defineOperation({
    name: 'listMySubscriptionOrders',
    suffix: 'BearerSubscriptions',
    method: 'GET',
    purpose: "caller's subscription orders, newest first",
    input: z.object({ status: statusEnum.optional(), ...pageInput }),
    output: pageOutput(orderOutput),
    handler: async (input, ctx) => ctx.api.subscriptions.listMine(ctx.user.id, input),
  }),
  defineOperation({
    name: 'getSubscriptionOrder',
    suffix: 'BearerSubscriptions',
    method: 'GET',
    purpose: 'fetch one of the caller’s subscription orders',
    input: z.object({ id: uuidInput('id') }),
    output: z.object({ order: orderOutput }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ({ order: await ctx.api.subscriptions.getMine(ctx.user.id, input.id) }),
  }),
  defineOperation({
    name: 'adminListSubscriptionPlans',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'GET',
    purpose: 'all subscription plans, inactive included',
    input: z.object({ category: categoryEnum.optional(), service: serviceInput.optional() }),
    output: z.object({ items: z.array(planOutput) }),
    handler: async (input, ctx) => ctx.api.subscriptions.listPlans({ includeInactive: true, ...input }),
  }),
  defineOperation({
    name: 'adminCreateSubscriptionPlan',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    gates: { stepUp: true },
    purpose: 'add a streaming or social plan',
    input: z.object({ service: serviceInput, category: categoryEnum, name: nameInput, price: planPrice, active: z.boolean().optional() }),
    output: z.object({ plan: planOutput }),
    handler: async (input, ctx) => ({ plan: await ctx.api.subscriptions.createPlan({ ...input, price: toKobo(input.price) }) }),
  }),
  defineOperation({
    name: 'adminUpdateSubscriptionPlan',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    gates: { stepUp: true },
    purpose: 'change a plan’s name, price or availability',
    input: z.object({ id: uuidInput('id'), name: nameInput.optional(), price: planPrice.optional(), active: z.boolean().optional() }),
    output: z.object({ plan: planOutput }),
    errors: ['NOT_FOUND'],
    handler: async ({ id, price, ...rest }, ctx) => ({
      plan: await ctx.api.subscriptions.updatePlan(id, { ...rest, price: price === undefined ? undefined : toKobo(price) }),
    }),
  }),
  defineOperation({
    name: 'adminListSubscriptionOrders',
    suffix: 'BearerAdmin',
    roles: ['finance', 'support'],
    method: 'GET',
    purpose: 'subscription orders, optionally by status or user',
    input: z.object({ status: statusEnum.optional(), userId: uuidInput('userId').optional(), ...pageInput }),
    output: pageOutput(adminOrderOutput),
    handler: async (input, ctx) => ctx.api.subscriptions.adminList(input),
  }),
  defineOperation({
    name: 'adminUpdateSubscriptionOrder',
    suffix: 'BearerAdmin',
    roles: ['finance'],
    method: 'POST',
    gates: { stepUp: true },
    purpose: 'move a subscription order: processing, fulfilled, or failed/cancelled (refund)',
    input: z.object({
      id: uuidInput('id'),
      status: z.enum(['processing', 'fulfilled', 'failed', 'cancelled'], {
        error: 'status must be processing, fulfilled, failed or cancelled',
      }),
      note: z.string().trim().min(1, 'note must not be empty').max(500, 'note must be at most 500 characters').optional(),
    }),
    output: z.object({ order: adminOrderOutput }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async (input, ctx) => {
      ctx.audit.target('subscription_order', input.id);
      const order = await ctx.api.subscriptions.adminUpdate(ctx.user.id, input);
      ctx.audit.target('user', order.userId);
      ctx.audit.change(null, { status: order.status, note: input.note ?? null });
      return { order };
    },
  }),
];
