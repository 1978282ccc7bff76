import { z } from 'zod';
import { nairaAmount, naira, toNaira } from '../../kernel/money.js';
import { KINDS, kindNamed, REPEAT_OPERATIONS, serviceInput } from './kinds/index.js';
import { networkInput, planIdInput } from './kinds/common-inputs.js';
import { examInput } from './kinds/exam/inputs.js';
import { cableInput } from './kinds/cable/inputs.js';
import { feeSplit } from './model.js';
import type { VtuRow } from './repository.js';

/**
 * The transaction view (docs/design.md §12) and the inputs that list the kinds (kinds/index.ts): shared fields here,
 * each kind's own fields from its `view` (schema in `viewFields`), "buy again" from its `repeat`.
 */
const kindFields = Object.assign({}, ...KINDS.map((k) => k.viewFields ?? {})) as Record<string, z.ZodType>;

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
    priceLevel: z.string().meta({ description: "the price level it was sold at (issue 45): `amount` is that level's price" }),
    createdAt: z.string(),
    updatedAt: z.string(),
    token: z.string().optional().meta({ description: 'electricity: the token, once the provider delivered it' }),
    units: z.string().optional().meta({ description: 'electricity: the units the provider reported with the token' }),
    pins: z.array(z.object({ pin: z.string(), serial: z.string().optional() })).optional(),
    customerName: z.string().optional(),
    failureReason: z.string().optional(),
    ...kindFields,
    repeat: z
      .object({
        operation: z.enum(REPEAT_OPERATIONS),
        input: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
      })
      .meta({ description: '"buy again": the purchase operation and its inputs, without the PIN (a plan\'s amount is the price then)' }),
  })
  .meta({ id: 'Transaction' });
export const txOut = z.object({ transaction: transactionOutput });

/** docs/design.md §12 transaction shape; the request id and provider payloads stay inside. */
export function toTransaction(r: VtuRow) {
  const kind = kindNamed(r.service);
  const d = r.details ?? {};
  const { value, fee } = feeSplit(kind.feeOnTop, BigInt(r.amount), BigInt(r.markup));
  return {
    id: r.id,
    reference: r.reference,
    service: r.service,
    status: r.status,
    amount: toNaira(r.amount),
    value: toNaira(value),
    fee: toNaira(fee),
    recipient: r.recipient,
    ...(r.network ? { network: r.network } : {}),
    ...(r.plan_id ? { planId: r.plan_id } : {}),
    ...(r.product ? { product: r.product } : {}),
    ...(r.meter_type ? { meterType: r.meter_type } : {}),
    ...(r.quantity ? { quantity: r.quantity } : {}),
    ...(r.phone ? { phone: r.phone } : {}),
    provider: r.provider,
    ported: r.ported,
    priceLevel: r.price_level,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
    ...(d.token ? { token: String(d.token) } : {}),
    ...(d.units ? { units: String(d.units) } : {}),
    ...(Array.isArray(d.pins) ? { pins: d.pins as { pin: string; serial?: string }[] } : {}),
    ...(d.customerName ? { customerName: String(d.customerName) } : {}),
    ...(r.failure_reason ? { failureReason: r.failure_reason } : {}),
    ...(kind.view?.(r) ?? {}),
    // A plan's amount is the price paid then; a changed price answers PRICE_CHANGED and the app quotes again.
    repeat: { operation: kind.repeatVia?.rows(r) ? kind.repeatVia.operation : kind.purchase.name, input: kind.repeat(r, value) },
  };
}

/** quotePurchase: the inputs of the purchase it prices, without the recipient and the PIN; each kind checks its own. */
export const quotePurchaseInput = z
  .object({
    service: serviceInput,
    amount: nairaAmount({ max: 500_000 }).optional(),
    network: networkInput.optional(),
    plan_id: planIdInput.optional(),
    identifier: cableInput.optional(),
    exam: examInput.optional(),
    quantity: z
      .number()
      .int('Quantity must be a whole number')
      .min(1, 'Quantity must be at least 1')
      // Each kind bounds its own quantity (exam PINs 10, social orders the service's maximum) in its quoteIssues.
      .max(1_000_000, 'Quantity can be at most 1,000,000')
      .optional(),
  })
  .superRefine((v, ctx) => {
    for (const issue of kindNamed(v.service).quoteIssues?.(v) ?? [])
      ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
  });
