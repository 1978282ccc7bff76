import type { ErrorCode } from '../../kernel/errors.js';
import { naira } from '../../kernel/money.js';
import { AIRTIME_AMOUNT } from './kinds/airtime/inputs.js';
import { BETTING_AMOUNT } from './kinds/betting/inputs.js';
import { ELECTRICITY_AMOUNT } from './kinds/electricity/inputs.js';
import { z } from 'zod';

/**
 * The VTU operations' shared inputs and outputs (spec 4.5), and the first six kinds' purchase inputs re-exported for
 * the app's bill forms (web/src/api/schemas.ts): this file and what it imports are zod and the kernel only. Each kind's
 * own schemas live in its folder (kinds/<kind>/inputs.ts); a kind with its own buy screen (kinds/<kind>/app/) imports
 * them from there, needing nothing here. The inputs that list the kinds are in view.ts.
 */
export { lower, networkInput, planIdInput, providerInput } from './kinds/common-inputs.js';
export { buyAirtimeInput } from './kinds/airtime/inputs.js';
export { buyDataInput } from './kinds/data/inputs.js';
export { CABLE_PROVIDERS, cableInput, iucInput, subscribeCableInput } from './kinds/cable/inputs.js';
export { buyElectricityInput, DISCOS, discoInput, meterInput, meterTypeInput } from './kinds/electricity/inputs.js';
export { companyInput, customerIdInput, fundBetInput } from './kinds/betting/inputs.js';
export { buyEducationPinInput } from './kinds/exam/inputs.js';

/** Bounds of the amount a buyer chooses, naira (the purchase operations' inputs). */
export const AMOUNT_BOUNDS = { airtime: AIRTIME_AMOUNT, electricity: ELECTRICITY_AMOUNT, betting: BETTING_AMOUNT } as const;

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
