import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { pageInput, pageOutput } from '../../kernel/paging.js';
import { uuidInput } from '../../kernel/inputs.js';
import { nairaAmount, toKobo, naira } from '../../kernel/money.js';
import { deliveryInput, orderQuantityInput, text } from './inputs.js';
import { pinInput } from '../../kernel/inputs.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['marketplace']);

const productOutput = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    price: naira,
    stock: z.number(),
    active: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'MarketplaceProduct' });

const orderOutput = z
  .object({
    id: z.string(),
    reference: z.string(),
    productId: z.string(),
    productName: z.string(),
    unitPrice: z.number(),
    quantity: z.number(),
    amount: naira,
    // `removed` replaces the details of a finished order once the account is closed.
    delivery: z.object({
      fullName: z.string().optional(),
      phone: z.string().optional(),
      address: z.string().optional(),
      city: z.string().optional(),
      state: z.string().optional(),
      note: z.string().optional(),
      removed: z.boolean().optional(),
    }),
    status: z.enum(['processing', 'fulfilled', 'cancelled']),
    note: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'MarketplaceOrder' });
const adminOrderOutput = orderOutput.extend({ userId: z.string() });
const orderStatus = z.enum(['processing', 'fulfilled', 'cancelled'], { error: 'status must be processing, fulfilled or cancelled' });
const productPrice = nairaAmount({ min: 1, max: 10_000_000 });
const stockInput = z
  .number({ error: 'stock must be a number' })
  .int('stock must be a whole number')
  .min(0, 'stock must be 0 or more')
  .max(1_000_000, 'stock must be at most 1,000,000');

export const marketplaceOperations = [
  defineOperation({
    name: 'listMarketplaceProducts',
    suffix: 'BearerMarketplace',
    method: 'GET',
    purpose: 'products on sale (active only)',
    input: z.object({ ...pageInput }),
    output: pageOutput(productOutput),
    handler: async (input, ctx) => ctx.api.marketplace.listProducts({ includeInactive: false, limit: input.limit, offset: input.offset }),
  }),
  defineOperation({
    name: 'createMarketplaceOrder',
    suffix: 'BearerMarketplace',
    method: 'POST',
    purpose: 'create an order: debits the wallet and reserves stock (PIN required)',
    rateLimit: 'money',
    gates: { money: true, pin: true },
    input: z.object({
      productId: uuidInput('productId'),
      quantity: orderQuantityInput,
      delivery: deliveryInput,
      /** Optional price confirmation: the total the client showed; a different current total is 409 PRICE_CHANGED. */
      amount: nairaAmount().optional(),
      pin: pinInput,
    }),
    output: z.object({ order: orderOutput }),
    errors: [
      'INVALID_PIN',
      'PIN_NOT_SET',
      'PIN_LOCKED',
      'INSUFFICIENT_FUNDS',
      'LIMIT_EXCEEDED',
      'OUT_OF_STOCK',
      'PRICE_CHANGED',
      'NOT_FOUND',
      'CONFLICT',
    ],
    handler: async (input, ctx) => ({
      order: await ctx.api.marketplace.createOrder(ctx.user, {
        productId: input.productId,
        quantity: input.quantity,
        delivery: input.delivery,
        amount: input.amount === undefined ? undefined : toKobo(input.amount),
      }),
    }),
  }),
  defineOperation({
    name: 'listMyMarketplaceOrders',
    suffix: 'BearerMarketplace',
    method: 'GET',
    purpose: "caller's orders, newest first",
    input: z.object({ status: orderStatus.optional(), ...pageInput }),
    output: pageOutput(orderOutput),
    handler: async (input, ctx) => ctx.api.marketplace.listMyOrders(ctx.user.id, input),
  }),
  defineOperation({
    name: 'getMarketplaceOrder',
    suffix: 'BearerMarketplace',
    method: 'GET',
    purpose: 'fetch one order',
    input: z.object({ id: uuidInput('id') }),
    output: z.object({ order: orderOutput }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ({ order: await ctx.api.marketplace.getMyOrder(ctx.user.id, input.id) }),
  }),
  defineOperation({
    name: 'adminListMarketplaceProducts',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'GET',
    purpose: 'all marketplace products, inactive included',
    input: z.object({ ...pageInput }),
    output: pageOutput(productOutput),
    handler: async (input, ctx) => ctx.api.marketplace.listProducts({ includeInactive: true, limit: input.limit, offset: input.offset }),
  }),
  defineOperation({
    name: 'adminCreateProduct',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    gates: { stepUp: true },
    purpose: 'add a marketplace product',
    input: z.object({
      name: text('name', 2, 120),
      description: text('description', 1, 2000).optional(),
      price: productPrice,
      stock: stockInput,
      active: z.boolean().optional(),
    }),
    output: z.object({ product: productOutput }),
    handler: async (input, ctx) => ({ product: await ctx.api.marketplace.createProduct({ ...input, price: toKobo(input.price) }) }),
  }),
  defineOperation({
    name: 'adminUpdateProduct',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    gates: { stepUp: true },
    purpose: 'change a product (name, description, price, stock, active)',
    input: z.object({
      id: uuidInput('id'),
      name: text('name', 2, 120).optional(),
      description: text('description', 1, 2000).nullable().optional(),
      price: productPrice.optional(),
      stock: stockInput.optional(),
      active: z.boolean().optional(),
    }),
    output: z.object({ product: productOutput }),
    errors: ['NOT_FOUND'],
    handler: async ({ id, price, ...rest }, ctx) => ({
      product: await ctx.api.marketplace.updateProduct(id, { ...rest, price: price === undefined ? undefined : toKobo(price) }),
    }),
  }),
  defineOperation({
    name: 'adminListMarketplaceOrders',
    suffix: 'BearerAdmin',
    roles: ['finance', 'support'],
    method: 'GET',
    purpose: 'marketplace orders, optionally by status or user',
    input: z.object({ status: orderStatus.optional(), userId: uuidInput('userId').optional(), ...pageInput }),
    output: pageOutput(adminOrderOutput),
    handler: async (input, ctx) => ctx.api.marketplace.adminListOrders(input),
  }),
  defineOperation({
    name: 'adminUpdateMarketplaceOrder',
    suffix: 'BearerAdmin',
    roles: ['finance'],
    method: 'POST',
    gates: { stepUp: true },
    purpose: 'fulfil or cancel (refund) a processing order',
    input: z.object({
      id: uuidInput('id'),
      status: z.enum(['fulfilled', 'cancelled'], { error: 'status must be fulfilled or cancelled' }),
      note: text('note', 1, 500).optional(),
    }),
    output: z.object({ order: adminOrderOutput }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async (input, ctx) => {
      ctx.audit.target('marketplace_order', input.id);
      const order = await ctx.api.marketplace.adminUpdateOrder(ctx.user.id, input);
      ctx.audit.target('user', order.userId);
      ctx.audit.change({ status: 'processing' }, { status: order.status, note: input.note ?? null });
      return { order };
    },
  }),
];
