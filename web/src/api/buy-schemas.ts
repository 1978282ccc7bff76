import { z } from 'zod';
import { beneficiaryLabelInput } from '../../../src/modules/beneficiaries/inputs.js';
import { TOPUP_MAX_NAIRA, TOPUP_MIN_NAIRA } from '../../../src/modules/payments/inputs.js';
import { AIRTIME_AMOUNT, buyAirtimeInput } from '../../../src/modules/vtu/kinds/airtime/inputs.js';
import { BETTING_AMOUNT, fundBetInput } from '../../../src/modules/vtu/kinds/betting/inputs.js';
import { subscribeCableInput } from '../../../src/modules/vtu/kinds/cable/inputs.js';
import { buyDataInput } from '../../../src/modules/vtu/kinds/data/inputs.js';
import { buyElectricityInput, ELECTRICITY_AMOUNT } from '../../../src/modules/vtu/kinds/electricity/inputs.js';
import { buyEducationPinInput } from '../../../src/modules/vtu/kinds/exam/inputs.js';

/**
 * The input rules of the buy feature's shared forms (phone, bulk and bill purchases, saved numbers and bills, the
 * review's top-up), as api/schemas.ts has them for the other screens (and re-exports these): apart, so the buy screen
 * makes only its own rules when its code loads, not every screen's (zod makes each rule when its module is evaluated:
 * most of the buy screen's longest task, docs/benchmarks.md).
 */

/** A text field left empty means "no change": the operation gets no such field. */
export const blankIsUnset = <T extends z.ZodType>(rule: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), rule.optional());

/** The bill forms: each purchase operation's fields without the PIN and the amount the service prices. */
export const airtimeSchema = buyAirtimeInput.pick({ network: true, phone: true, amount: true });
export const dataSchema = buyDataInput.pick({ network: true, phone: true, plan_id: true });
/** "Save this number": the beneficiary's label, asked for only when the box is ticked. */
export const saveNumberSchema = z.discriminatedUnion('save', [
  z.object({ save: z.literal(false), label: z.string() }),
  z.object({ save: z.literal(true), label: beneficiaryLabelInput }),
]);
/** saveBeneficiary's name for a bill's meter, smartcard or account ("Save this meter" after a purchase). */
export const beneficiaryLabelSchema = z.object({ label: beneficiaryLabelInput });
export const cableSchema = subscribeCableInput.pick({ identifier: true, iuc: true, plan_id: true, phone: true });
export const electricitySchema = buyElectricityInput.pick({ plan: true, type: true, meter: true, amount: true, phone: true });
export const bettingSchema = fundBetInput.pick({ betting_company: true, customer_id: true, amount: true });
// The profile code is asked for only by the exams that need one: a blank field means none.
export const examSchema = buyEducationPinInput
  .pick({ exam: true, quantity: true, phone: true })
  .extend({ profile_id: blankIsUnset(buyEducationPinInput.shape.profile_id.unwrap()) });
/** Bounds of the amount a buyer chooses, naira (the purchase operations' inputs). */
export const AMOUNT_BOUNDS = { airtime: AIRTIME_AMOUNT, electricity: ELECTRICITY_AMOUNT, betting: BETTING_AMOUNT } as const;

/** startProcessorTopup's amount bounds (the review's "Continue to payment" and the fund screen): ₦100 to ₦1,000,000. */
export const TOPUP_BOUNDS = [TOPUP_MIN_NAIRA, TOPUP_MAX_NAIRA] as const;
