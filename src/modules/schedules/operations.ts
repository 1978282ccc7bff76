import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { pageInput, pageOutput } from '../../kernel/paging.js';
import { uuidInput } from '../../kernel/inputs.js';
import { naira } from '../../kernel/money.js';
import { NETWORKS } from '../../kernel/phone.js';
import { phoneInput } from '../identity/api.js';
import { pinInput } from '../../kernel/inputs.js';
import { scheduleAmountInput, scheduleTimeInput } from './inputs.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['schedules']);

const frequencyInput = z.enum(['daily', 'weekly', 'monthly'], { error: 'frequency must be daily, weekly or monthly' });
const networkInput = z
  .string({ error: 'network is required' })
  .trim()
  .toLowerCase()
  .pipe(z.enum(NETWORKS, { error: `network must be one of ${NETWORKS.join(', ')}` }));

const scheduleOutput = z
  .object({
    id: z.string(),
    service: z.enum(['airtime', 'data']),
    network: z.string(),
    phone: z.string(),
    planId: z.string().nullable(),
    amount: naira,
    ported: z.boolean(),
    frequency: frequencyInput,
    time: z.string(),
    dayOfWeek: z.number().nullable(),
    dayOfMonth: z.number().nullable(),
    label: z.string().nullable(),
    active: z.boolean(),
    nextRunAt: z.string().nullable(),
    lastRunAt: z.string().nullable(),
    lastStatus: z.string().nullable(),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Schedule' });

const upsertInput = z
  .object({
    id: uuidInput('id').optional(),
    service: z.enum(['airtime', 'data'], { error: 'service must be airtime or data' }),
    network: networkInput,
    phone: phoneInput,
    planId: z.string().trim().min(1, 'planId must not be empty').max(80, 'planId is too long').optional(),
    amount: scheduleAmountInput,
    ported: z.boolean({ error: 'ported must be true or false' }).optional(),
    frequency: frequencyInput,
    time: scheduleTimeInput,
    dayOfWeek: z
      .number()
      .int()
      .min(0, 'dayOfWeek must be 0 (Sunday) to 6 (Saturday)')
      .max(6, 'dayOfWeek must be 0 (Sunday) to 6 (Saturday)')
      .optional(),
    dayOfMonth: z.number().int().min(1, 'dayOfMonth must be 1 to 31').max(31, 'dayOfMonth must be 1 to 31').optional(),
    label: z.string().trim().min(1, 'label must not be empty').max(60, 'label must be at most 60 characters').optional(),
    active: z.boolean().optional(),
    pin: pinInput,
  })
  .superRefine((v, ctx) => {
    if (v.service === 'data' && !v.planId)
      ctx.addIssue({ code: 'custom', path: ['planId'], message: 'planId is required for data schedules' });
    if (v.service === 'airtime' && v.planId)
      ctx.addIssue({ code: 'custom', path: ['planId'], message: 'planId is only for data schedules' });
    if (v.service === 'airtime' && (v.amount < 50 || v.amount > 50_000))
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'airtime amount must be 50 to 50,000 naira' });
    if (v.frequency === 'weekly' && v.dayOfWeek === undefined)
      ctx.addIssue({ code: 'custom', path: ['dayOfWeek'], message: 'dayOfWeek is required for weekly schedules' });
    if (v.frequency !== 'weekly' && v.dayOfWeek !== undefined)
      ctx.addIssue({ code: 'custom', path: ['dayOfWeek'], message: 'dayOfWeek is only for weekly schedules' });
    if (v.frequency === 'monthly' && v.dayOfMonth === undefined)
      ctx.addIssue({ code: 'custom', path: ['dayOfMonth'], message: 'dayOfMonth is required for monthly schedules' });
    if (v.frequency !== 'monthly' && v.dayOfMonth !== undefined)
      ctx.addIssue({ code: 'custom', path: ['dayOfMonth'], message: 'dayOfMonth is only for monthly schedules' });
  });

export const scheduleOperations = [
  defineOperation({
    name: 'listSchedules',
    suffix: 'BearerSchedules',
    method: 'GET',
    purpose: 'list scheduled purchases',
    input: z.object({}),
    output: z.object({ items: z.array(scheduleOutput) }),
    handler: async (_input, ctx) => ctx.api.schedules.list(ctx.user.id),
  }),
  defineOperation({
    name: 'upsertSchedule',
    suffix: 'BearerSchedules',
    method: 'POST',
    purpose: 'create or update a scheduled airtime or data purchase (PIN checked when saved)',
    gates: { money: true, pin: true },
    input: upsertInput,
    output: z.object({ schedule: scheduleOutput, created: z.boolean() }),
    errors: ['INVALID_PIN', 'PIN_NOT_SET', 'PIN_LOCKED', 'NETWORK_MISMATCH', 'PRICE_CHANGED', 'NOT_FOUND', 'CONFLICT'],
    handler: async (input, ctx) => {
      const { pin: _pin, ...rest } = input;
      return ctx.api.schedules.upsert(ctx.user.id, rest);
    },
  }),
  defineOperation({
    name: 'toggleSchedule',
    suffix: 'BearerSchedules',
    method: 'POST',
    purpose: 'pause or resume a schedule',
    input: z.object({ id: uuidInput('id'), active: z.boolean({ error: 'active must be true or false' }) }),
    output: z.object({ schedule: scheduleOutput }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ({ schedule: await ctx.api.schedules.toggle(ctx.user.id, input.id, input.active) }),
  }),
  defineOperation({
    name: 'deleteSchedule',
    suffix: 'BearerSchedules',
    method: 'POST',
    purpose: 'delete a schedule',
    input: z.object({ id: uuidInput('id') }),
    output: z.object({ deleted: z.boolean() }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ctx.api.schedules.remove(ctx.user.id, input.id),
  }),
  defineOperation({
    name: 'listScheduleRuns',
    suffix: 'BearerSchedules',
    method: 'GET',
    purpose: 'past runs of one schedule, newest first',
    input: z.object({ id: uuidInput('id'), ...pageInput }),
    output: pageOutput(
      z.object({
        id: z.string(),
        slot: z.string(),
        status: z.string(),
        transactionId: z.string().nullable(),
        errorCode: z.string().nullable(),
        errorMessage: z.string().nullable(),
        createdAt: z.string(),
      }),
    ),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ctx.api.schedules.listRuns(ctx.user.id, input.id, input.limit, input.offset),
  }),
];
