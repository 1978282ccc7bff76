import type { ErrorCode } from '../../kernel/errors.js';
import { naira } from '../../kernel/money.js';
import { z } from 'zod';

/**
 * The VTU operations' shared inputs and outputs (spec 4.5): this file and what it imports are zod and the kernel only.
 * Each kind's own schemas live in its folder (kinds/<kind>/inputs.ts), where the app's forms import them from too
 * (web/src/api/schemas.ts, a kind's screen in web/src/features/buy/kinds/<kind>); the inputs that list the kinds are in view.ts.
 */
export { lower, providerInput } from './kinds/common-inputs.js';
// The lists of the cable providers and discos the module's api offers (modules/vtu/api.ts).
export { CABLE_PROVIDERS } from './kinds/cable/inputs.js';
export { DISCOS } from './kinds/electricity/inputs.js';

export const PURCHASE_ERRORS: ErrorCode[] = [
  'INVALID_PIN',
  'PIN_NOT_SET',
  'PIN_LOCKED',
  'KYC_TIER_REQUIRED',
  'INSUFFICIENT_FUNDS',
  'LIMIT_EXCEEDED',
  'UPSTREAM_ERROR',
];

export const quoteOutput = z.object({
  service: z.string(),
  name: z.string().nullable().meta({ description: 'the plan or product priced, when there is one' }),
  amount: naira,
  fee: naira,
  total: naira,
  level: z
    .object({ id: z.string(), name: z.string() })
    .meta({ description: "the price level the caller buys at (issue 45): the total is that level's price" }),
});

export const withoutPin = <T extends { pin: string }>(i: T): Omit<T, 'pin'> => {
  const { pin: _pin, ...rest } = i;
  return rest;
};

export function markupOutput() {
  return z.object({
    service: z.string(),
    provider: z.string().nullable(),
    kind: z.enum(['flat', 'percent']),
    value: z.number(),
    updatedAt: z.string(),
  });
}
