import { z } from 'zod';
import { fourDigitPin } from '../../../src/kernel/inputs.js';
import { fullNameInput, usernameInput } from '../../../src/modules/identity/inputs.js';
import { beneficiaryLabelInput } from '../../../src/modules/beneficiaries/inputs.js';
import {
  AMOUNT_BOUNDS,
  buyAirtimeInput,
  buyDataInput,
  buyEducationPinInput,
  buyElectricityInput,
  fundBetInput,
  subscribeCableInput,
} from '../../../src/modules/vtu/inputs.js';
import { reportDescriptionInput, reportReferenceInput } from '../../../src/modules/reports/inputs.js';
import { MONEY_MAX_NAIRA, TRANSFER_MIN_NAIRA, transferAmountInput, transferNoteInput } from '../../../src/modules/wallet/inputs.js';

/**
 * The input rules of the operations the app's forms call, written once: these are the service's own zod schemas
 * (the modules' inputs.ts), so a limit changed on the service changes the form (test/web/form-schemas.test.ts checks
 * each against the operation's declared input). Forms validate with them before sending; the service checks again.
 */
export { MONEY_MAX_NAIRA, TRANSFER_MIN_NAIRA };

/** transferWalletFn without its PIN (the PIN pad confirms the transfer): the recipient, the amount, a note. */
export const transferSchema = z.object({
  // The form accepts "@name" as people write it; the service's rule applies to the name without the @.
  username: z.preprocess((v) => (typeof v === 'string' ? v.trim().replace(/^@/, '') : v), usernameInput),
  amount: transferAmountInput,
  note: transferNoteInput,
});
export const transferRecipientSchema = transferSchema.pick({ username: true });

/** A text field left empty means "no change": the operation gets no such field. */
const blankIsUnset = <T extends z.ZodType>(rule: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), rule.optional());

/** updateProfile's name fields (the phone is verified in its own flow). */
export const profileSchema = z.object({ username: blankIsUnset(usernameInput), fullName: blankIsUnset(fullNameInput) });

/** createTransactionReport's text fields (the category is a choice from a fixed list). */
export const reportSchema = z.object({ reference: reportReferenceInput, description: reportDescriptionInput });

/** setTransactionPinFn: the new PIN, and the current one when a PIN is already set. */
export const transactionPinSchema = z.object({ pin: fourDigitPin('pin'), currentPin: blankIsUnset(fourDigitPin('currentPin')) });

/** The bill forms: each purchase operation's fields without the PIN and the amount the service prices. */
export const airtimeSchema = buyAirtimeInput.pick({ network: true, phone: true, amount: true });
export const dataSchema = buyDataInput.pick({ network: true, phone: true, plan_id: true });
/** "Save this number": the beneficiary's label, asked for only when the box is ticked. */
export const saveNumberSchema = z.discriminatedUnion('save', [
  z.object({ save: z.literal(false), label: z.string() }),
  z.object({ save: z.literal(true), label: beneficiaryLabelInput }),
]);
export const cableSchema = subscribeCableInput.pick({ identifier: true, iuc: true, plan_id: true, phone: true });
export const electricitySchema = buyElectricityInput.pick({ plan: true, type: true, meter: true, amount: true, phone: true });
export const bettingSchema = fundBetInput.pick({ betting_company: true, customer_id: true, amount: true });
// The profile code is asked for only by the exams that need one: a blank field means none.
export const examSchema = buyEducationPinInput
  .pick({ exam: true, quantity: true, phone: true })
  .extend({ profile_id: blankIsUnset(buyEducationPinInput.shape.profile_id.unwrap()) });
export { AMOUNT_BOUNDS };
