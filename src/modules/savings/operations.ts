import { z } from 'zod';
import { operationsOf } from '../../http/registry.js';
import { pageInput, pageOutput } from '../../kernel/paging.js';
import { uuidInput } from '../../kernel/inputs.js';
import { nairaAmount, naira } from '../../kernel/money.js';
import { SAVINGS_MAX_DAYS, SAVINGS_MIN_DAYS } from './service.js';
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
      amount: nairaAmount({ max: 100_000_000 }),
      days: z
        .number({ error: 'days must be a number' })
        .int('days must be a whole number')
        .min(SAVINGS_MIN_DAYS, `days must be at least ${SAVINGS_MIN_DAYS}`)
        .max(SAVINGS_MAX_DAYS, `days must be at most ${SAVINGS_MAX_DAYS}`),
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
