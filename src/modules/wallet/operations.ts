import { z } from 'zod';
import { fileOutput, operationsOf, type OpContext } from '../../platform/operation.js';
import { historyFilterInput, lagosDay } from '../../kernel/days.js';
import { pageInput, pageOutput } from '../../kernel/paging.js';
import { STATEMENT_FORMATS } from './statement.js';
import type { Reads } from '../../platform/reads.js';
import { nairaAmount, naira } from '../../kernel/money.js';
import { usernameInput } from '../identity/api.js';
import { TOPUP_MAX_NAIRA, TOPUP_MIN_NAIRA } from '../payments/api.js';
import { DEBIT_MIN_NAIRA, MONEY_MAX_NAIRA } from './money.js';
import { pinInput } from '../../kernel/inputs.js';
import {
  dedicatedAccountOutput,
  ledgerRowOutput,
  referenceInput,
  topupIntentOutput,
  transferAmountInput,
  transferNoteInput,
} from './inputs.js';

export { dedicatedAccountOutput, ledgerRowOutput, referenceInput, topupIntentOutput };

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['kyc', 'payments', 'settings', 'wallet', 'walletMoney', 'walletStatements']);

/**
 * Spec 5.8: transfers and dedicated accounts need Tier 2 with a name matching the profile (the KYC module's check),
 * from the request's read-ahead when the operation declared it.
 */
export async function assertTier2Eligible(ctx: Pick<OpContext<Reads, 'kyc'>, 'user' | 'api'>) {
  return ctx.api.kyc.assertTransferEligible(ctx.user.id);
}

export const walletOperations = [
  defineOperation({
    name: 'getWalletState',
    suffix: 'BearerWallet',
    method: 'GET',
    purpose: 'balance, locked bonuses, recent ledger',
    input: z.object({}),
    output: z.object({
      balance: naira,
      lockedBonus: z.number(),
      referralLockedBonus: z.number(),
      log: z.array(ledgerRowOutput),
      dedicatedAccount: dedicatedAccountOutput.nullable().optional(),
    }),
    handler: async (_input, ctx) => ctx.api.wallet.state(ctx.user.id),
  }),
  defineOperation({
    name: 'listWalletActivity',
    suffix: 'BearerWallet',
    method: 'GET',
    purpose:
      "the wallet's ledger lines, newest first, a page at a time; from..to (Lagos days, at most 366) and a search (q: reference, recipient, service words) narrow them",
    input: z.object({ ...pageInput, ...historyFilterInput }),
    output: pageOutput(ledgerRowOutput),
    handler: async (input, ctx) => ctx.api.wallet.activity(ctx.user.id, input),
  }),
  defineOperation({
    name: 'getStatement',
    suffix: 'BearerWallet',
    method: 'GET',
    purpose:
      "the wallet's statement for from..to (Lagos days, at most 366) as a CSV or PDF file, in the customer's saved language: opening balance, the lines, closing balance",
    download: ['text/csv', 'application/pdf'],
    input: z.object({
      format: z.enum(STATEMENT_FORMATS, { error: 'format must be csv or pdf' }),
      from: lagosDay.meta({ description: 'first Lagos day included (YYYY-MM-DD)', examples: ['2026-01-01'] }),
      to: lagosDay.meta({ description: 'last Lagos day included (YYYY-MM-DD); at most 366 days from `from`', examples: ['2026-01-31'] }),
    }),
    output: fileOutput,
    handler: async (input, ctx) => {
      const { preferences } = await ctx.api.settings.getPreferences(ctx.user.id);
      return ctx.api.walletStatements.file(ctx.user.id, input, preferences.language);
    },
  }),
  defineOperation({
    name: 'getWalletLimits',
    suffix: 'BearerWallet',
    method: 'GET',
    purpose: "the caller's KYC tier limits (daily outflow, balance cap), what is left of today's, and the next tier's",
    input: z.object({}),
    output: z.object({
      tier: z.number().int(),
      dailyLimit: naira,
      spentToday: naira,
      leftToday: naira,
      balanceCap: naira.nullable().meta({ description: 'null: no balance cap' }),
      nextTier: z
        .object({ tier: z.number().int(), dailyLimit: naira, balanceCap: naira.nullable() })
        .nullable()
        .meta({ description: 'the lowest tier above that raises the limits, and its limits; null when none does' }),
    }),
    handler: async (_input, ctx) => ctx.api.walletMoney.limitsToday(ctx.user),
  }),
  defineOperation({
    name: 'createTopupIntent',
    suffix: 'BearerWallet',
    method: 'POST',
    gates: { money: true },
    purpose: 'server-side top-up intent with immutable reference; returns the checkout URL',
    rateLimit: 'money',
    input: z.object({
      amount: nairaAmount({ min: TOPUP_MIN_NAIRA, max: TOPUP_MAX_NAIRA }),
      // docs/design.md §6: optional (the integration flow omits it), default from config.
      processor: z.string().trim().min(1).max(40).optional(),
    }),
    output: topupIntentOutput,
    errors: ['AMOUNT_OUT_OF_RANGE', 'UPSTREAM_ERROR'],
    handler: async (input, ctx) => ctx.api.payments.createTopupIntent(ctx.user, input),
  }),
  defineOperation({
    name: 'getTopupIntent',
    suffix: 'BearerWallet',
    method: 'GET',
    purpose: 'poll status of own top-up intent',
    input: z.object({ reference: referenceInput }),
    output: topupIntentOutput,
    handler: async (input, ctx) => ctx.api.payments.getTopupIntent(ctx.user.id, input.reference),
  }),
  defineOperation({
    name: 'debitWalletFn',
    suffix: 'BearerWallet',
    method: 'POST',
    purpose: "debit the caller's wallet",
    rateLimit: 'money',
    gates: { money: true, pin: true },
    input: z.object({
      amount: nairaAmount({ min: DEBIT_MIN_NAIRA, max: MONEY_MAX_NAIRA }),
      note: z.string({ error: 'note is required' }).trim().min(1, 'note is required').max(140, 'note must be at most 140 characters'),
      pin: pinInput,
    }),
    output: z.object({ reference: z.string(), amount: naira, note: z.string(), balance: naira }),
    errors: ['INVALID_PIN', 'PIN_NOT_SET', 'PIN_LOCKED', 'INSUFFICIENT_FUNDS', 'LIMIT_EXCEEDED'],
    handler: async (input, ctx) => ctx.api.walletMoney.debit(ctx.user, input),
  }),
  defineOperation({
    name: 'transferWalletFn',
    suffix: 'BearerWallet',
    method: 'POST',
    purpose: 'send funds to another user; KYC Tier 2 required',
    // Issue 45: an API key sends money with the transfer scope (no PIN, no step-up; its daily spend limit holds).
    scope: 'transfer',
    rateLimit: 'money',
    gates: { money: true, pin: true, stepUp: true },
    // Eligibility, PIN row and recipient in one statement; the checks below still run in their order.
    readAhead: (input, ctx) => ({
      eligibility: ctx.api.kyc.eligibilityRead(ctx.user.id),
      recipient: ctx.api.walletMoney.recipientRead(input.username),
    }),
    precheck: async (_input, ctx) => void (await assertTier2Eligible(ctx)),
    input: z.object({
      username: usernameInput,
      amount: transferAmountInput,
      note: transferNoteInput,
      pin: pinInput,
    }),
    output: z.object({
      reference: z.string(),
      amount: naira,
      balance: naira,
      recipient: z.object({ username: z.string(), fullName: z.string().nullable() }),
    }),
    errors: [
      'KYC_TIER_REQUIRED',
      'STEP_UP_REQUIRED',
      'INVALID_PIN',
      'PIN_NOT_SET',
      'PIN_LOCKED',
      'INSUFFICIENT_FUNDS',
      'LIMIT_EXCEEDED',
      'NOT_FOUND',
    ],
    // The eligibility checked again (on the read-ahead's answer) gives the sender's verified name for the notice.
    handler: async (input, ctx) => ctx.api.walletMoney.transfer(ctx.user, input, await assertTier2Eligible(ctx)),
  }),
  defineOperation({
    name: 'lookupProfileByUsername',
    suffix: 'BearerWallet',
    method: 'POST',
    purpose: 'resolve an @username to a recipient profile (the full name to Tier 2 callers, masked to others)',
    input: z.object({
      username: z
        .string()
        .trim()
        .transform((s) => s.replace(/^@/, ''))
        .pipe(usernameInput),
    }),
    output: z.object({ username: z.string(), fullName: z.string().nullable() }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ctx.api.walletMoney.lookupProfile(ctx.user, input.username),
  }),
  defineOperation({
    name: 'getOrCreateDedicatedAccount',
    suffix: 'BearerWallet',
    method: 'POST',
    purpose: "the caller's dedicated virtual account (created with the processor on first call); KYC Tier 2",
    gates: { kycTier: 2 },
    precheck: async (_input, ctx) => void (await assertTier2Eligible(ctx)),
    input: z.object({}),
    output: z.object({ dedicatedAccount: dedicatedAccountOutput.extend({ processor: z.string(), createdAt: z.string() }) }),
    errors: ['KYC_TIER_REQUIRED', 'UPSTREAM_ERROR'],
    handler: async (_input, ctx) => ({ dedicatedAccount: await ctx.api.payments.getOrCreateDedicatedAccount(ctx.user.id) }),
  }),
];
