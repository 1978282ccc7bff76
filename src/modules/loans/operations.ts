import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { pageInput, pageOutput } from '../../kernel/paging.js';
import { naira } from '../../kernel/money.js';
import { loanAmountInput } from './inputs.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['loans']);

const loanOutput = z
  .object({
    id: z.string(),
    principal: z.number(),
    fee: naira,
    lateFee: z.number(),
    repaid: z.number(),
    outstanding: z.number(),
    status: z.enum(['open', 'overdue', 'repaid']),
    createdAt: z.string(),
    dueAt: z.string(),
    overdueAt: z.string().nullable(),
    repaidAt: z.string().nullable(),
  })
  .meta({ id: 'Loan' });

export const loanOperations = [
  defineOperation({
    name: 'getLoanOverview',
    suffix: 'BearerLoans',
    method: 'GET',
    purpose: 'loan eligibility and outstanding balance',
    input: z.object({}),
    output: z.object({
      eligible: z.boolean(),
      reasons: z.array(z.object({ code: z.string(), message: z.string() })),
      limit: z.number(),
      minAmount: naira,
      feePct: z.number(),
      lateFeePct: z.number(),
      termDays: z.number(),
      outstanding: z.number(),
      dueAt: z.string().nullable(),
      loan: loanOutput.nullable(),
    }),
    handler: async (_input, ctx) => ctx.api.loans.overview(ctx.user),
  }),
  defineOperation({
    name: 'takeLoan',
    suffix: 'BearerLoans',
    method: 'POST',
    gates: { money: true },
    purpose: 'take a loan',
    rateLimit: 'money',
    errors: ['NOT_ELIGIBLE', 'AMOUNT_OUT_OF_RANGE', 'CONFLICT'],
    input: z.object({ amount: loanAmountInput }),
    output: z.object({ loan: loanOutput }),
    handler: async (input, ctx) => ctx.api.loans.take(ctx.user, input.amount),
  }),
  defineOperation({
    name: 'repayLoan',
    suffix: 'BearerLoans',
    method: 'POST',
    gates: { money: true },
    purpose: 'repay the open loan from the wallet (all of it unless amount is given)',
    rateLimit: 'money',
    errors: ['NOT_FOUND', 'INSUFFICIENT_FUNDS', 'AMOUNT_OUT_OF_RANGE'],
    input: z.object({ amount: loanAmountInput.optional() }),
    output: z.object({ loan: loanOutput, paid: z.number() }),
    handler: async (input, ctx) => ctx.api.loans.repay(ctx.user.id, input.amount),
  }),
  defineOperation({
    name: 'adminListLoans',
    suffix: 'BearerAdmin',
    roles: ['finance', 'support'],
    method: 'GET',
    purpose: 'loans by status (collections view), newest first',
    input: z.object({ ...pageInput, status: z.enum(['open', 'overdue', 'repaid']).optional() }),
    output: pageOutput(loanOutput.extend({ userId: z.string(), email: z.string() })),
    handler: async (input, ctx) => ctx.api.loans.adminList(input),
  }),
];
