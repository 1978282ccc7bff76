import { z } from 'zod';

/**
 * Input primitives shared by several kinds' inputs.ts (zod only, like them: the app's forms import the kinds' inputs
 * through ../inputs.ts). A kind's inputs.ts imports these from here, never from ../inputs.ts (which re-exports the
 * kinds' inputs: that would be a cycle).
 */
export const lower = <const T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .toLowerCase()
    .pipe(z.enum(values, { error: `${name} must be one of ${values.join(', ')}` }));

export const networkInput = lower('network', ['mtn', 'airtel', 'glo', '9mobile']);
export const providerInput = lower('provider', ['a', 'b', 'c', 'd']);
export const planIdInput = z.string({ error: 'plan_id is required' }).trim().min(1, 'plan_id is required').max(80, 'plan_id is too long');
export const portedInput = z.boolean({ error: 'ported must be true or false' }).optional();
