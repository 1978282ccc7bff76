import { z } from 'zod';
import { fourDigitPin } from '../../../src/kernel/inputs.js';
import { fullNameInput, usernameInput } from '../../../src/modules/identity/inputs.js';
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
