import { z } from 'zod';
import { naira } from '../../kernel/money.js';
import { AppError } from '../../kernel/errors.js';
import { operationsOf } from '../../platform/operation.js';
import { settingsPatchSchema, settingsSchema } from './settings.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['growth', 'growthSettings']);

const milestoneOutput = z.object({ threshold: z.number(), bonus: z.number(), reachedAt: z.string() }).meta({ id: 'Milestone' });

export const growthOperations = [
  defineOperation({
    name: 'getMyReferralStatus',
    suffix: 'BearerGrowth',
    method: 'GET',
    purpose: 'referral code, invitees, locked bonus',
    input: z.object({}),
    output: z.object({
      code: z.string(),
      invitees: z.number(),
      qualifiedInvitees: z.number(),
      rewardedInvitees: z.number(),
      lockedBonus: z.number(),
      earnedBonus: z.number(),
      bonusPerInvitee: z.number(),
      unlock: z.object({ rule: z.literal('own_purchases'), required: z.number(), spent: z.number(), met: z.boolean() }),
      recentInvitees: z.array(z.object({ name: z.string(), status: z.string(), joinedAt: z.string() })),
    }),
    handler: async (_input, ctx) => ctx.api.growth.referralStatus(ctx.user.id),
  }),
  defineOperation({
    name: 'getPendingMilestones',
    suffix: 'BearerGrowth',
    method: 'GET',
    purpose: 'milestones awaiting acknowledgement',
    input: z.object({}),
    output: z.object({
      items: z.array(milestoneOutput),
      rewardedInvitees: z.number(),
      next: z.object({ threshold: z.number(), bonus: z.number(), remaining: z.number() }).nullable(),
    }),
    handler: async (_input, ctx) => ctx.api.growth.pendingMilestones(ctx.user.id),
  }),
  defineOperation({
    name: 'ackMilestone',
    suffix: 'BearerGrowth',
    method: 'POST',
    purpose: 'acknowledge a milestone',
    input: z.object({
      threshold: z
        .number({ error: 'threshold must be a number' })
        .int('threshold must be a whole number')
        .min(1, 'threshold must be at least 1')
        .max(100_000),
    }),
    output: z.object({ threshold: z.number(), acknowledgedAt: z.string() }),
    handler: async (input, ctx) => ctx.api.growth.ackMilestone(ctx.user.id, input.threshold),
  }),
  defineOperation({
    name: 'getCheckinStatus',
    suffix: 'BearerGrowth',
    method: 'GET',
    purpose: 'daily check-in status',
    input: z.object({}),
    output: z.object({
      today: z.string(),
      streak: z.number(),
      todayClaimed: z.boolean(),
      accrued: z.number(),
      nextReward: z.number(),
      minWithdrawal: z.number(),
      canWithdraw: z.boolean(),
    }),
    handler: async (_input, ctx) => ctx.api.growth.checkinStatus(ctx.user.id),
  }),
  defineOperation({
    name: 'claimCheckin',
    suffix: 'BearerGrowth',
    method: 'POST',
    gates: { money: true },
    purpose: "claim today's check-in",
    rateLimit: 'money',
    errors: ['CONFLICT'],
    input: z.object({}),
    output: z.object({ day: z.string(), streak: z.number(), reward: z.number(), accrued: z.number() }),
    handler: async (_input, ctx) => ctx.api.growth.claimCheckin(ctx.user.id),
  }),
  defineOperation({
    name: 'withdrawCheckin',
    suffix: 'BearerGrowth',
    method: 'POST',
    gates: { money: true },
    purpose: 'withdraw accrued check-in bonus',
    rateLimit: 'money',
    errors: ['AMOUNT_OUT_OF_RANGE'],
    input: z.object({}),
    output: z.object({ amount: naira, reference: z.string(), balance: naira }),
    handler: async (_input, ctx) => ctx.api.growth.withdrawCheckin(ctx.user.id),
  }),
  defineOperation({
    name: 'adminGetGrowthSettings',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'GET',
    purpose: 'read referral, check-in, savings and loan rules',
    input: z.object({}),
    output: z.object({ settings: settingsSchema }),
    handler: async (_input, ctx) => ({ settings: await ctx.api.growthSettings.get() }),
  }),
  defineOperation({
    name: 'adminUpdateGrowthSettings',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    gates: { stepUp: true },
    purpose: 'change referral, check-in, savings and loan rules (audited)',
    input: settingsPatchSchema,
    output: z.object({ settings: settingsSchema }),
    handler: async (input, ctx) => {
      if (Object.keys(input).length === 0) throw new AppError('VALIDATION_FAILED', 'Send at least one setting to change');
      const before = await ctx.api.growthSettings.get();
      const after = await ctx.api.growthSettings.update(ctx.user.id, input);
      ctx.audit.target('growth_settings', 'global');
      const changed = Object.keys(input) as (keyof typeof after)[];
      ctx.audit.change(Object.fromEntries(changed.map((k) => [k, before[k]])), Object.fromEntries(changed.map((k) => [k, after[k]])));
      return { settings: after };
    },
  }),
];
