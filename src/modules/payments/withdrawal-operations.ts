import { z } from 'zod';
import { AppError } from '../../kernel/errors.js';
import { pinInput, queryBool, uuidInput } from '../../kernel/inputs.js';
import { naira } from '../../kernel/money.js';
import { pageInput, pageOutput } from '../../kernel/paging.js';
import { operationsOf } from '../../platform/operation.js';
import { referenceInput } from '../wallet/api.js';
import { withdrawalAccountNumberInput, withdrawalAmountInput, withdrawalBankCodeInput } from './inputs.js';
import { adminWithdrawalOutput } from './withdrawal-admin.js';
import { withdrawalOutput } from './withdrawal-model.js';

/** What these handlers use (ctx.api). */
const defineOperation = operationsOf(['payments']);

const resolvedAccount = z
  .object({ bankCode: z.string(), bankName: z.string(), accountNumber: z.string(), accountName: z.string() })
  .meta({ id: 'ResolvedBankAccount' });

/** Issue 43: money out to a bank account through the processor's transfer API (KYC Tier 2). */
export const withdrawalOperations = [
  defineOperation({
    name: 'getWithdrawalOptions',
    suffix: 'BearerWallet',
    method: 'GET',
    purpose: 'the banks a withdrawal can go to, its fee and its amount bounds; KYC Tier 2',
    gates: { kycTier: 2 },
    input: z.object({}),
    output: z.object({
      fee: naira.meta({ description: 'added to the amount: the wallet is debited amount + fee' }),
      minAmount: naira,
      maxAmount: naira,
      banks: z.array(z.object({ code: z.string(), name: z.string() })),
    }),
    errors: ['KYC_TIER_REQUIRED'],
    handler: async (_input, ctx) => ctx.api.payments.withdrawalOptions(),
  }),
  defineOperation({
    name: 'resolveWithdrawalAccount',
    suffix: 'BearerWallet',
    method: 'POST',
    purpose: "name enquiry at the processor: a bank account's name, before a withdrawal to it; KYC Tier 2",
    gates: { kycTier: 2 },
    // Ten a minute: enough to check an account or two, too few to walk account numbers for names.
    rateLimit: 'strict',
    input: z.object({ bankCode: withdrawalBankCodeInput, accountNumber: withdrawalAccountNumberInput }),
    output: resolvedAccount,
    errors: ['KYC_TIER_REQUIRED', 'UPSTREAM_ERROR'],
    handler: async (input, ctx) => ctx.api.payments.resolveWithdrawalAccount(input.bankCode, input.accountNumber),
  }),
  defineOperation({
    name: 'withdrawToBank',
    suffix: 'BearerWallet',
    method: 'POST',
    purpose:
      'withdraw to a bank account: the wallet is debited amount + fee at once (daily limit), the transfer settles or is refunded; KYC Tier 2',
    rateLimit: 'money',
    gates: { money: true, kycTier: 2, pin: true, stepUp: true },
    // Below Tier 2 the answer is KYC_TIER_REQUIRED before the PIN is asked or counted (the app's "raise your tier").
    precheck: async (_input, ctx) => {
      if (ctx.user.kycTier < 2) throw new AppError('KYC_TIER_REQUIRED', 'KYC Tier 2 is required to withdraw to a bank account');
    },
    input: z.object({
      bankCode: withdrawalBankCodeInput,
      accountNumber: withdrawalAccountNumberInput,
      amount: withdrawalAmountInput,
      pin: pinInput,
    }),
    output: z.object({ withdrawal: withdrawalOutput, balance: naira }),
    errors: [
      'KYC_TIER_REQUIRED',
      'STEP_UP_REQUIRED',
      'INVALID_PIN',
      'PIN_NOT_SET',
      'PIN_LOCKED',
      'INSUFFICIENT_FUNDS',
      'LIMIT_EXCEEDED',
      'UPSTREAM_ERROR',
    ],
    handler: async (input, ctx) => ctx.api.payments.withdrawToBank(ctx.user, input),
  }),
  defineOperation({
    name: 'getWithdrawal',
    suffix: 'BearerWallet',
    method: 'GET',
    purpose: "one of the caller's withdrawals, by reference: its status",
    input: z.object({ reference: referenceInput }),
    output: z.object({ withdrawal: withdrawalOutput }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ctx.api.payments.getWithdrawal(ctx.user.id, input.reference),
  }),
  defineOperation({
    name: 'adminListWithdrawals',
    suffix: 'BearerAdmin',
    roles: ['finance', 'support'],
    method: 'GET',
    purpose:
      'operator list of withdrawals to a bank, newest first; stuck=true keeps those still pending with the processor past WITHDRAWAL_STUCK_AFTER_MINUTES, oldest first',
    input: z.object({
      status: z
        .enum(['pending', 'success', 'failed', 'reversed'], { error: 'status must be pending, success, failed or reversed' })
        .optional(),
      stuck: queryBool.optional(),
      reference: referenceInput.optional(),
      userId: uuidInput('userId').optional(),
      ...pageInput,
    }),
    output: pageOutput(adminWithdrawalOutput).extend({ stuckAfterSeconds: z.number() }),
    handler: async (input, ctx) => ctx.api.payments.adminListWithdrawals(input),
  }),
  defineOperation({
    name: 'adminRequeryWithdrawal',
    suffix: 'BearerAdmin',
    roles: ['finance'],
    upstream: true,
    method: 'POST',
    stepUpExempt: "applies the processor's own answer for a withdrawal; the operator chooses no outcome",
    purpose:
      'ask the processor now about one pending withdrawal and apply its answer: paid is settled, failed or reversed is refunded once, pending is polled again',
    input: z.object({ reference: referenceInput }),
    output: z.object({
      withdrawal: adminWithdrawalOutput,
      processorStatus: z
        .enum(['success', 'failed', 'reversed', 'pending', 'not_found'])
        .nullable()
        .meta({ description: 'what the processor answered; null when the withdrawal had already ended and it was not asked' }),
    }),
    errors: ['NOT_FOUND', 'UPSTREAM_ERROR'],
    handler: async (input, ctx) => {
      ctx.audit.target('withdrawal', input.reference);
      return ctx.api.payments.adminRequeryWithdrawal(input.reference);
    },
  }),
];
