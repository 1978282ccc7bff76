import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { preferencesPatch, preferencesSchema } from './preferences.js';
import { fourDigitPin } from '../../kernel/inputs.js';
import { closeAccountInput } from './inputs.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['settings']);

export const settingsOperations = [
  defineOperation({
    name: 'hasTransactionPin',
    suffix: 'BearerSettings',
    method: 'GET',
    purpose: 'whether a transaction PIN is set',
    input: z.object({}),
    output: z.object({ hasPin: z.boolean() }),
    handler: async (_input, ctx) => ctx.api.settings.hasTransactionPin(ctx.user.id),
  }),
  defineOperation({
    name: 'setTransactionPinFn',
    suffix: 'BearerSettings',
    method: 'POST',
    purpose: 'set or change the 4-digit transaction PIN (needs a step-up grant: X-Grant-Token; changing also needs currentPin)',
    input: z.object({ pin: fourDigitPin('pin'), currentPin: fourDigitPin('currentPin').optional() }),
    output: z.object({ hasPin: z.boolean() }),
    errors: ['INVALID_PIN', 'PIN_LOCKED', 'STEP_UP_REQUIRED'],
    handler: async (input, ctx) => ctx.api.settings.setTransactionPin(ctx.user, input.pin, input.currentPin, ctx.grantToken),
  }),
  defineOperation({
    name: 'getPreferences',
    suffix: 'BearerSettings',
    method: 'GET',
    purpose: 'user preferences',
    input: z.object({}),
    output: z.object({ preferences: preferencesSchema }),
    handler: async (_input, ctx) => ctx.api.settings.getPreferences(ctx.user.id),
  }),
  defineOperation({
    name: 'updatePreferences',
    suffix: 'BearerSettings',
    method: 'POST',
    purpose: 'update preferences (partial: notifications {email, push, sms}, marketingOptIn, language, theme, defaultNetwork)',
    input: preferencesPatch.refine((p) => Object.values(p).some((v) => v !== undefined), {
      message: 'send at least one preference to change',
    }),
    output: z.object({ preferences: preferencesSchema }),
    handler: async (input, ctx) => ctx.api.settings.updatePreferences(ctx.user.id, input),
  }),
  defineOperation({
    name: 'closeAccount',
    suffix: 'BearerSettings',
    method: 'POST',
    purpose:
      'close the account (confirm must be the literal "DELETE"; needs a step-up grant: X-Grant-Token; refused while money is held or a loan is open)',
    gates: { reauth: true },
    input: closeAccountInput,
    output: z.object({ closed: z.boolean() }),
    errors: ['ACCOUNT_HAS_FUNDS', 'LOAN_OUTSTANDING', 'STEP_UP_REQUIRED'],
    handler: async (_input, ctx) => ctx.api.settings.closeAccount(ctx.user),
  }),
];
