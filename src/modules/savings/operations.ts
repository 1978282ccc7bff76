import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { pageInput, pageOutput } from '../../kernel/paging.js';
import { uuidInput } from '../../kernel/inputs.js';
import { naira } from '../../kernel/money.js';
import { savingsAmountInput, savingsDaysInput } from './inputs.js';
import { pinInput } from '../../kernel/inputs.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['savings']);

const lockOutput = z
  .object({
    id: z.string(),
    amount: naira,
    days: z.number(),
    interestRatePct: z.number(),
    interest: z.number(),
    breakFeePct: z.number(),
    status: z.enum(['active', 'matured', 'broken']),
    payout: z.number().nullable(),
    fee: naira.nullable(),
    createdAt: z.string(),
    maturesAt: z.string(),
    closedAt: z.string().nullable(),
  })
  .meta({ id: 'SavingsLock' });

export const savingsOperations = [
  defineOperation({
    name: 'listSavingsLocks',
    suffix: 'BearerSavings',
    method: 'GET',
    purpose: 'list savings locks',
    input: z.object({ ...pageInput, status: z.enum(['active', 'matured', 'broken']).optional() }),
    output: pageOutput(lockOutput).extend({ totalLocked: z.number() }),
    handler: async (input, ctx) => ctx.api.savings.list(ctx.user.id, input),
  }),
  defineOperation({
    name: 'createSavingsLock',
    suffix: 'BearerSavings',
    method: 'POST',
    purpose: 'lock funds for N days',
    rateLimit: 'money',
    gates: { money: true, pin: true },
    errors: ['INSUFFICIENT_FUNDS', 'AMOUNT_OUT_OF_RANGE', 'INVALID_PIN', 'PIN_NOT_SET', 'PIN_LOCKED'],
    input: z.object({
      amount: savingsAmountInput,
      days: savingsDaysInput,
      pin: pinInput,
    }),
    output: z.object({ lock: lockOutput }),
    handler: async (input, ctx) => ctx.api.savings.create(ctx.user.id, { amount: input.amount, days: input.days }),
  }),
  defineOperation({
    name: 'breakSavingsLock',
    suffix: 'BearerSavings',
    method: 'POST',
    gates: { money: true },
    purpose: 'break a lock early',
    rateLimit: 'money',
    errors: ['NOT_FOUND', 'CONFLICT'],
    input: z.object({ lockId: uuidInput('lockId') }),
    output: z.object({ lock: lockOutput }),
    handler: async (input, ctx) => ctx.api.savings.breakLock(ctx.user.id, input.lockId),
  }),
];
