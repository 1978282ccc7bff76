import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { uuidInput } from '../../kernel/inputs.js';
import { naira } from '../../kernel/money.js';
import { pageInput, pageOutput } from '../../kernel/paging.js';
import { CUSTOMER_SORTS } from './service.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['customers']);

const reasonInput = z
  .string({ error: 'reason is required' })
  .trim()
  .min(3, 'reason must be at least 3 characters')
  .max(500, 'reason must be at most 500 characters');

const customerItem = z
  .object({
    userId: z.string(),
    email: z.string(),
    username: z.string().nullable(),
    fullName: z.string().nullable(),
    phone: z.string().nullable(),
    kycTier: z.number(),
    status: z.string(),
    frozen: z.boolean(),
    matchedBy: z.enum(['id', 'email', 'phone', 'username', 'name', 'reference', 'account_number']),
    createdAt: z.string(),
  })
  .meta({ id: 'CustomerSearchItem' });

const customerOutput = z
  .object({
    profile: z.object({
      id: z.string(),
      email: z.string(),
      username: z.string().nullable(),
      fullName: z.string().nullable(),
      phone: z.string().nullable(),
      phoneVerified: z.boolean(),
      kycTier: z.number(),
      status: z.string(),
      createdAt: z.string(),
    }),
    frozen: z.boolean(),
    freeze: z.object({ reason: z.string(), frozenBy: z.string().nullable(), frozenAt: z.string() }).nullable(),
    kyc: z.object({
      tier: z.number(),
      submissions: z.array(
        z.object({
          id: z.string(),
          tier: z.number(),
          status: z.string(),
          reason: z.string().nullable(),
          createdAt: z.string(),
          reviewedAt: z.string().nullable(),
        }),
      ),
    }),
    wallet: z.object({
      balance: naira,
      recent: z.array(
        z.object({
          reference: z.string(),
          type: z.string(),
          amount: naira,
          balanceAfter: naira,
          description: z.string(),
          createdAt: z.string(),
        }),
      ),
    }),
    sessions: z.array(
      z.object({
        id: z.string(),
        status: z.string(),
        method: z.string(),
        userAgent: z.string().nullable(),
        ip: z.string().nullable(),
        endedReason: z.string().nullable(),
        createdAt: z.string(),
        expiresAt: z.string(),
      }),
    ),
    devices: z.array(z.object({ id: z.string(), createdAt: z.string(), lastUsedAt: z.string(), expiresAt: z.string() })),
    purchases: z.array(
      z.object({
        id: z.string(),
        reference: z.string(),
        service: z.string(),
        provider: z.string(),
        recipient: z.string(),
        amount: naira,
        status: z.string(),
        createdAt: z.string(),
      }),
    ),
    topups: z.array(z.object({ reference: z.string(), processor: z.string(), amount: naira, status: z.string(), createdAt: z.string() })),
  })
  .meta({ id: 'Customer' });

/** Issue 30: the operators' customer look-ups, freeze and sign-out everywhere. Support may do all of these. */
export const customerOperations = [
  defineOperation({
    name: 'adminSearchCustomers',
    suffix: 'BearerAdmin',
    roles: ['support'],
    method: 'GET',
    purpose:
      'find customers by user id, e-mail (or its beginning), phone, username, name (the profile name or the verified KYC name: its beginning or whole words, any case), a top-up or purchase reference, or a dedicated account number, sorted newest, oldest or by e-mail',
    input: z.object({
      q: z.string({ error: 'q is required' }).trim().min(3, 'q must be at least 3 characters').max(254, 'q must be at most 254 characters'),
      sort: z.enum(CUSTOMER_SORTS, { error: 'sort must be newest, oldest or email' }).default('newest'),
      ...pageInput,
    }),
    output: pageOutput(customerItem),
    handler: async (input, ctx) => ctx.api.customers.search(input.q, input.limit, input.offset, input.sort),
  }),
  defineOperation({
    name: 'adminGetCustomer',
    suffix: 'BearerAdmin',
    roles: ['support'],
    method: 'GET',
    purpose: 'one customer: profile, KYC, wallet and recent ledger lines, sessions and devices, recent purchases and top-ups, frozen state',
    input: z.object({ userId: uuidInput('userId') }),
    output: customerOutput,
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => {
      ctx.audit.target('user', input.userId);
      return ctx.api.customers.get(input.userId);
    },
  }),
  defineOperation({
    name: 'adminFreezeCustomer',
    suffix: 'BearerAdmin',
    roles: ['support'],
    method: 'POST',
    gates: { stepUp: true },
    purpose:
      'freeze a customer with a reason: they can sign in and read, every operation that moves money answers ACCOUNT_FROZEN and schedules pause',
    input: z.object({ userId: uuidInput('userId'), reason: reasonInput }),
    output: z.object({ userId: z.string(), frozen: z.boolean(), frozenAt: z.string() }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async (input, ctx) => {
      ctx.audit.target('user', input.userId);
      const done = await ctx.api.customers.freeze(ctx.user.id, input.userId, input.reason);
      ctx.audit.change({ frozen: false }, { frozen: true, reason: input.reason });
      return done;
    },
  }),
  defineOperation({
    name: 'adminUnfreezeCustomer',
    suffix: 'BearerAdmin',
    roles: ['support'],
    method: 'POST',
    gates: { stepUp: true },
    purpose: 'lift a freeze with a reason; money operations and scheduled purchases work again',
    input: z.object({ userId: uuidInput('userId'), reason: reasonInput }),
    output: z.object({ userId: z.string(), frozen: z.boolean() }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async (input, ctx) => {
      ctx.audit.target('user', input.userId);
      const done = await ctx.api.customers.unfreeze(input.userId);
      ctx.audit.change({ frozen: true }, { frozen: false, reason: input.reason });
      return done;
    },
  }),
  defineOperation({
    name: 'adminSignOutCustomer',
    suffix: 'BearerAdmin',
    roles: ['support'],
    method: 'POST',
    gates: { stepUp: true },
    purpose: 'end every session of a customer (sign out everywhere); known devices stay',
    input: z.object({ userId: uuidInput('userId') }),
    output: z.object({ userId: z.string(), sessionsEnded: z.number() }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => {
      ctx.audit.target('user', input.userId);
      return ctx.api.customers.signOutEverywhere(input.userId);
    },
  }),
];
