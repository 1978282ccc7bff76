import { z } from 'zod';
import { fourDigitPin, phoneInput } from '../../../src/kernel/inputs.js';
import { emailInput, fullNameInput, otpCodeInput, usernameInput } from '../../../src/modules/identity/inputs.js';
import { accountNumberInput, bankCodeInput, kycFullNameInput, ninInput } from '../../../src/modules/kyc/inputs.js';
import { loanAmountInput } from '../../../src/modules/loans/inputs.js';
import { savingsAmountInput, savingsDaysInput } from '../../../src/modules/savings/inputs.js';
import { deliveryInput, orderQuantityInput } from '../../../src/modules/marketplace/inputs.js';
import { subscriptionAccountInput } from '../../../src/modules/subscriptions/inputs.js';
import { scheduleAmountInput, scheduleTimeInput } from '../../../src/modules/schedules/inputs.js';
import { messageBodyInput } from '../../../src/modules/support/inputs.js';
import { loginIdentifierText, loginPinInput, secondFactorCodeInput } from '../../../src/modules/security/inputs.js';
import { closeAccountInput } from '../../../src/modules/settings/inputs.js';
import { pollVoteInput, templateBodyInput, templateSubjectInput } from '../../../src/modules/notifications/inputs.js';
import {
  correctionAmountInput,
  topupAmountInput,
  WITHDRAWAL_MAX_NAIRA,
  WITHDRAWAL_MIN_NAIRA,
  withdrawalAccountNumberInput,
  withdrawalAmountInput,
  withdrawalBankCodeInput,
} from '../../../src/modules/payments/inputs.js';
import { businessNameInput, buyEpinsFields } from '../../../src/modules/epins/inputs.js';
import { reportDescriptionInput, reportReferenceInput } from '../../../src/modules/reports/inputs.js';
import { allowedIpsInput, dailyLimitInput, KEY_MODES, keyNameInput, keyScopesInput } from '../../../src/modules/developers/inputs.js';
import { MONEY_MAX_NAIRA, TRANSFER_MIN_NAIRA, transferAmountInput, transferNoteInput } from '../../../src/modules/wallet/inputs.js';
import { blankIsUnset } from './buy-schemas.js';

/**
 * The input rules of the operations the app's forms call, written once: these are the service's own zod schemas
 * (the modules' inputs.ts), so a limit changed on the service changes the form (test/web/form-schemas.test.ts checks
 * each against the operation's declared input). Forms validate with them before sending; the service checks again.
 * A kind's own buy screen keeps its forms' schemas in its folder (web/src/features/buy/kinds/<kind>/schemas.ts); the
 * buy feature's shared forms keep theirs in buy-schemas.ts (re-exported here).
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

export { WITHDRAWAL_MAX_NAIRA, WITHDRAWAL_MIN_NAIRA };
/** withdrawToBank without its PIN (the PIN pad confirms it): the bank, the account number, the amount before the fee. */
export const withdrawSchema = z.object({
  bankCode: withdrawalBankCodeInput,
  accountNumber: withdrawalAccountNumberInput,
  amount: withdrawalAmountInput,
});
/** resolveWithdrawalAccount: the bank and the account number, checked before the amount is asked for. */
export const withdrawAccountSchema = withdrawSchema.pick({ bankCode: true, accountNumber: true });

/** Onboarding's name step: updateProfile's fullName, required there (the first name a new account gives). */
export const fullNameSchema = z.object({ fullName: fullNameInput });

/** updateProfile's name fields (the phone is verified in its own flow). */
export const profileSchema = z.object({ username: blankIsUnset(usernameInput), fullName: blankIsUnset(fullNameInput) });

/** createTransactionReport's text fields (the category is a choice from a fixed list). */
export const reportSchema = z.object({ reference: reportReferenceInput, description: reportDescriptionInput });

/** setTransactionPinFn: the new PIN, and the current one when a PIN is already set. */
export const transactionPinSchema = z.object({ pin: fourDigitPin('pin'), currentPin: blankIsUnset(fourDigitPin('currentPin')) });

/** The buy screens' forms (buy-schemas.ts: only their rules load with them). */
export {
  AMOUNT_BOUNDS,
  airtimeSchema,
  beneficiaryLabelSchema,
  bettingSchema,
  cableSchema,
  dataSchema,
  electricitySchema,
  examSchema,
  saveNumberSchema,
  TOPUP_BOUNDS,
} from './buy-schemas.js';
/** buyEpins's order as the recharge-cards form holds it (issue 45): the business name empty (none) or 2 to 40 characters. */
export const epinOrderSchema = z.object({
  network: buyEpinsFields.network,
  denomination: buyEpinsFields.denomination,
  quantity: buyEpinsFields.quantity,
  businessName: z
    .string()
    .trim()
    .pipe(z.union([z.literal(''), businessNameInput])),
});

/** Sign-in (sendLoginOtp, verifyLoginOtp, startPinLogin): the e-mail, the 6-digit code, the identifier and login PIN. */
export const emailSchema = z.object({ email: emailInput });
export const codeSchema = z.object({ code: otpCodeInput });
/** completeSignIn (issue 43): the authenticator's 6-digit code or a recovery code. */
export const secondFactorSchema = z.object({ code: secondFactorCodeInput });
/** The login PIN (startPinLogin, setLoginPin): 6 digits. */
export { loginPinInput };
export const pinLoginSchema = z.object({
  // The service reads an e-mail or a username (with or without @); the form asks only that one is typed.
  identifier: loginIdentifierText.refine((v) => v !== '', 'identifier is required'),
  pin: loginPinInput,
});
export const loginPinSchema = z.object({ pin: loginPinInput });
/** closeAccount: the word DELETE typed. */
export const closeAccountSchema = closeAccountInput;

/** The phone check (sendPhoneOtp, verifyPhoneOtp). */
export const phoneSchema = z.object({ phone: phoneInput });
/** submitNinKyc's typed fields (the slip is a file, uploaded first). */
export const ninSchema = z.object({ nin: ninInput, fullName: blankIsUnset(kycFullNameInput) });
/** verifyBankAccount and submitBankKyc: the bank (a code from listBanks) and the 10-digit NUBAN; the check digit is the service's. */
export const bankAccountSchema = z.object({
  // The app knows the banks it listed (the select offers only those): here a code must have been chosen.
  bankCode: bankCodeInput((c) => c !== ''),
  accountNumber: accountNumberInput,
});

/** createSavingsLock without the PIN; takeLoan; repayLoan (all of the loan when no amount is given). */
export const savingsLockSchema = z.object({ amount: savingsAmountInput, days: savingsDaysInput });
export const loanSchema = z.object({ amount: loanAmountInput });
export const repaySchema = z.object({ amount: blankIsUnset(loanAmountInput) });

/** createMarketplaceOrder's quantity and delivery; submitSubscriptionOrder's account. */
export const marketOrderSchema = z.object({ quantity: orderQuantityInput, delivery: deliveryInput });
export const subscriptionOrderSchema = z.object({ account: subscriptionAccountInput });
/** upsertSchedule's airtime fields (the network follows the number). */
export const scheduleSchema = z.object({ phone: phoneInput, amount: scheduleAmountInput, time: scheduleTimeInput });

/** votePoll's choice (the poll is the card's). */
export const pollVoteSchema = pollVoteInput.pick({ optionId: true });

/** startProcessorTopup's amount (the e-mail and return address are the app's): ₦100 to ₦1,000,000 (TOPUP_BOUNDS). */
export const topupSchema = z.object({ amount: topupAmountInput });
/** adminCorrectSettlement's signed amount (the console's correction dialog; its reason is the dialog's own). */
export const settlementCorrectionSchema = z.object({ amount: correctionAmountInput });

/** sendSupportMessage's message (the thread is the customer's own). */
export const supportMessageSchema = z.object({ body: messageBodyInput });

/** adminSaveMessageTemplate's and adminPreviewMessageTemplate's text (the console's template editor; the key and language are the screen's). */
export const templateTextSchema = z.object({ subject: templateSubjectInput, body: templateBodyInput });

/** The addresses typed on the developer page, one per line (or space-separated). */
export const addressLines = (text: string) => text.split(/\s+/).filter(Boolean);
/**
 * createApiKey's input as the developer page holds it (issue 45): the allowed addresses as typed, the daily limit
 * empty (no limit) or an amount.
 */
export const apiKeySchema = z.object({
  name: keyNameInput,
  mode: z.enum(KEY_MODES),
  scopes: keyScopesInput,
  ips: z.string().refine((text) => allowedIpsInput.safeParse(addressLines(text)).success),
  dailyLimit: z.union([z.literal(''), dailyLimitInput]),
});

/** createWebhookEndpoint's address: a full web address (the service holds it to https on a public host outside the sandbox). */
export const webhookEndpointSchema = z.object({ url: z.url().max(2000) });
