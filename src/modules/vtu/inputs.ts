import { z } from 'zod';
import type { ErrorCode } from '../../kernel/errors.js';
import { nairaAmount, naira } from '../../kernel/money.js';
import { phoneInput } from '../identity/api.js';
import { pinInput } from '../../kernel/inputs.js';

/** The VTU operations' inputs and outputs (spec 4.5), shared by the customer and operator operations. */
export const lower = <const T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .toLowerCase()
    .pipe(z.enum(values, { error: `${name} must be one of ${values.join(', ')}` }));

export const networkInput = lower('network', ['mtn', 'airtel', 'glo', '9mobile']);
export const cableInput = lower('identifier', ['dstv', 'gotv', 'startimes', 'showmax']);
export const discoInput = lower('plan', [
  'ikeja',
  'eko',
  'kano',
  'portharcourt',
  'jos',
  'ibadan',
  'kaduna',
  'abuja',
  'enugu',
  'benin',
  'aba',
  'yola',
]);
export const meterTypeInput = lower('type', ['prepaid', 'postpaid']);
export const serviceInput = lower('service', ['airtime', 'data', 'cable', 'electricity', 'betting', 'exam']);
export const providerInput = lower('provider', ['a', 'b', 'c', 'd']);
export const planIdInput = z.string({ error: 'plan_id is required' }).trim().min(1, 'plan_id is required').max(80, 'plan_id is too long');
export const iucInput = z
  .string({ error: 'iuc is required' })
  .trim()
  .regex(/^\d{10,12}$/, 'iuc must be the 10-12 digit smartcard (IUC) number');
export const meterInput = z
  .string({ error: 'meter is required' })
  .trim()
  .regex(/^\d{11,13}$/, 'meter must be the 11-13 digit meter number');
export const customerIdInput = z
  .string({ error: 'customer_id is required' })
  .trim()
  .regex(/^[A-Za-z0-9_-]{3,30}$/, 'customer_id must be 3-30 letters, digits, _ or -');
export const companyInput = z
  .string({ error: 'betting_company is required' })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9-]{2,30}$/, 'betting_company must be a company id from listBetCompanies');

export const transactionOutput = z
  .object({
    id: z.string(),
    reference: z.string(),
    service: z.string(),
    status: z.enum(['processing', 'success', 'failed']),
    amount: naira,
    recipient: z.string(),
    network: z.string().optional(),
    planId: z.string().optional(),
    product: z.string().optional(),
    meterType: z.string().optional(),
    quantity: z.number().optional(),
    phone: z.string().optional(),
    provider: z.string(),
    ported: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
    token: z.string().optional(),
    units: z.string().optional(),
    pins: z.array(z.object({ pin: z.string(), serial: z.string().optional() })).optional(),
    customerName: z.string().optional(),
    failureReason: z.string().optional(),
  })
  .meta({ id: 'Transaction' });
export const txOut = z.object({ transaction: transactionOutput });
export const PURCHASE_ERRORS: ErrorCode[] = [
  'INVALID_PIN',
  'PIN_NOT_SET',
  'PIN_LOCKED',
  'KYC_TIER_REQUIRED',
  'INSUFFICIENT_FUNDS',
  'LIMIT_EXCEEDED',
  'UPSTREAM_ERROR',
];

export const buyAirtimeInput = z.object({
  network: networkInput,
  phone: phoneInput,
  amount: nairaAmount({ min: 50, max: 50_000 }),
  pin: pinInput,
  ported: z.boolean({ error: 'ported must be true or false' }).optional(),
});
export const buyDataInput = z.object({
  network: networkInput,
  plan_id: planIdInput,
  phone: phoneInput,
  amount: nairaAmount({ max: 100_000 }),
  pin: pinInput,
  ported: z.boolean({ error: 'ported must be true or false' }).optional(),
});
export const subscribeCableInput = z.object({
  identifier: cableInput,
  iuc: iucInput,
  plan_id: planIdInput,
  amount: nairaAmount({ max: 200_000 }),
  phone: phoneInput,
  pin: pinInput,
});
export const buyElectricityInput = z.object({
  plan: discoInput,
  meter: meterInput,
  type: meterTypeInput,
  amount: nairaAmount({ min: 1000, max: 500_000 }),
  phone: phoneInput,
  pin: pinInput,
});
export const fundBetInput = z.object({
  betting_company: companyInput,
  customer_id: customerIdInput,
  amount: nairaAmount({ min: 100, max: 500_000 }),
  pin: pinInput,
});
export const buyEducationPinInput = z.object({
  exam: z
    .string({ error: 'exam is required' })
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9-]{2,40}$/, 'exam must be a plan_id from listEducationPins'),
  quantity: z
    .number({ error: 'quantity must be a number' })
    .int('quantity must be a whole number')
    .min(1, 'quantity must be at least 1')
    .max(10, 'quantity must be at most 10')
    .default(1),
  phone: phoneInput,
  amount: nairaAmount({ max: 500_000 }),
  profile_id: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{6,20}$/, 'profile_id must be 6-20 letters or digits')
    .optional(),
  pin: pinInput,
});

export const withoutPin = <T extends { pin: string }>(i: T): Omit<T, 'pin'> => {
  const { pin: _pin, ...rest } = i;
  return rest;
};

export function dataPlanOutput() {
  return z.object({ plan_id: z.string(), network: z.string(), planType: z.string(), name: z.string(), validity: z.string(), price: naira });
}
export function markupOutput() {
  return z.object({
    service: z.string(),
    provider: z.string().nullable(),
    kind: z.enum(['flat', 'percent']),
    value: z.number(),
    updatedAt: z.string(),
  });
}
