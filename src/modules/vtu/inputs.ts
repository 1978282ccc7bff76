import { z } from 'zod';
import type { ErrorCode } from '../../kernel/errors.js';
import { nairaAmount, naira } from '../../kernel/money.js';
import { phoneInput, pinInput } from '../../kernel/inputs.js';

/**
 * The VTU operations' inputs and outputs (spec 4.5), shared by the customer and operator operations and by the app's
 * bill forms (web/src/api/schemas.ts): this file imports only zod and the kernel.
 */
export const REPEAT_OPERATIONS = ['buyAirtime', 'buyData', 'subscribeCable', 'buyElectricity', 'fundBet', 'buyEducationPin'] as const;

export const lower = <const T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .toLowerCase()
    .pipe(z.enum(values, { error: `${name} must be one of ${values.join(', ')}` }));

export const networkInput = lower('network', ['mtn', 'airtel', 'glo', '9mobile']);
/** Cable providers and distribution companies sold (also the providers of saved smartcards and meters). */
export const CABLE_PROVIDERS = ['dstv', 'gotv', 'startimes', 'showmax'] as const;
export const cableInput = lower('identifier', CABLE_PROVIDERS);
export const DISCOS = [
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
] as const;
export const discoInput = lower('plan', DISCOS);
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
    // amount = what the wallet paid = value (the face value, or the plan's price) + fee (airtime, electricity, betting).
    amount: naira,
    value: naira,
    fee: naira,
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
    token: z.string().optional().meta({ description: 'electricity: the token, once the provider delivered it' }),
    units: z.string().optional().meta({ description: 'electricity: the units the provider reported with the token' }),
    pins: z.array(z.object({ pin: z.string(), serial: z.string().optional() })).optional(),
    customerName: z.string().optional(),
    failureReason: z.string().optional(),
    repeat: z
      .object({
        operation: z.enum(REPEAT_OPERATIONS),
        input: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
      })
      .meta({ description: '"buy again": the purchase operation and its inputs, without the PIN (a plan\'s amount is the price then)' }),
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

/** Bounds of the amount a buyer chooses, naira (the purchase operations' inputs above). */
export const AMOUNT_BOUNDS = { airtime: [50, 50_000], electricity: [1000, 500_000], betting: [100, 500_000] } as const;
const naira0 = new Intl.NumberFormat('en-NG');

/** quotePurchase: the inputs of the purchase it prices, without the recipient and the PIN. */
export const quotePurchaseInput = z
  .object({
    service: serviceInput,
    amount: nairaAmount({ max: 500_000 }).optional(),
    network: networkInput.optional(),
    plan_id: planIdInput.optional(),
    identifier: cableInput.optional(),
    exam: buyEducationPinInput.shape.exam.optional(),
    quantity: z
      .number()
      .int('Quantity must be a whole number')
      .min(1, 'Quantity must be at least 1')
      .max(10, 'Quantity can be at most 10')
      .optional(),
  })
  .superRefine((v, ctx) => {
    const need = (field: keyof typeof v, message: string) => {
      if (v[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message });
    };
    if (v.service === 'airtime' || v.service === 'electricity' || v.service === 'betting') {
      need('amount', 'Enter the amount');
      const [min, max] = AMOUNT_BOUNDS[v.service];
      if (v.amount !== undefined && (v.amount < min || v.amount > max))
        ctx.addIssue({
          code: 'custom',
          path: ['amount'],
          message: `Amount must be between ₦${naira0.format(min)} and ₦${naira0.format(max)}`,
        });
    }
    if (v.service === 'data') {
      need('network', 'Choose the network');
      need('plan_id', 'Choose a data plan');
    }
    if (v.service === 'cable') {
      need('identifier', 'Choose the cable provider');
      need('plan_id', 'Choose a TV plan');
    }
    if (v.service === 'exam') need('exam', 'Choose the exam');
  });

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
