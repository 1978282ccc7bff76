import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allOperations } from '../../src/modules/index.js';
import {
  airtimeSchema,
  bankAccountSchema,
  closeAccountSchema,
  codeSchema,
  emailSchema,
  loanSchema,
  loginPinSchema,
  marketOrderSchema,
  ninSchema,
  phoneSchema,
  pollVoteSchema,
  pinLoginSchema,
  repaySchema,
  savingsLockSchema,
  scheduleSchema,
  subscriptionOrderSchema,
  supportMessageSchema,
  topupSchema,
  bettingSchema,
  cableSchema,
  dataSchema,
  electricitySchema,
  examSchema,
  fullNameSchema,
  profileSchema,
  reportSchema,
  transactionPinSchema,
  transferSchema,
  withdrawAccountSchema,
  withdrawSchema,
  beneficiaryLabelSchema,
  settlementCorrectionSchema,
  templateTextSchema,
} from '../../web/src/api/schemas.js';
/**
 * The app's forms validate with the service's own input rules (web/src/api/schemas.ts, a kind's schemas.ts in web/src/features/buy/kinds/<kind>/): each field of a form schema
 * has the same JSON Schema as the field of the operation it fills, so a rule changed on one side and not the other
 * fails here (the transfer minimum was 1 in the form and 50 on the service).
 */
const inputOf = (name: string) => {
  const op = allOperations.find((o) => o.name === name);
  if (!op) throw new Error(`no operation ${name}`);
  return op.input as z.ZodObject;
};
const json = (s: z.ZodType) => z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' });

describe('form schemas are the operations’ input rules', () => {
  const forms: [string, z.ZodObject][] = [
    ['transferWalletFn', transferSchema],
    ['withdrawToBank', withdrawSchema],
    ['resolveWithdrawalAccount', withdrawAccountSchema],
    ['updateProfile', profileSchema],
    ['updateProfile', fullNameSchema],
    ['createTransactionReport', reportSchema],
    ['setTransactionPinFn', transactionPinSchema],
    ['buyAirtime', airtimeSchema],
    ['buyData', dataSchema],
    ['subscribeCable', cableSchema],
    ['buyElectricity', electricitySchema],
    ['fundBet', bettingSchema],
    ['buyEducationPin', examSchema],
    ['sendLoginOtp', emailSchema],
    ['verifyLoginOtp', codeSchema],
    ['startPinLogin', pinLoginSchema],
    ['setLoginPin', loginPinSchema],
    ['closeAccount', closeAccountSchema],
    ['sendPhoneOtp', phoneSchema],
    ['verifyPhoneOtp', codeSchema],
    ['confirmTotpEnrollment', codeSchema],
    ['submitNinKyc', ninSchema],
    ['verifyBankAccount', bankAccountSchema],
    ['submitBankKyc', bankAccountSchema],
    ['createSavingsLock', savingsLockSchema],
    ['takeLoan', loanSchema],
    ['repayLoan', repaySchema],
    ['createMarketplaceOrder', marketOrderSchema],
    ['submitSubscriptionOrder', subscriptionOrderSchema],
    ['upsertSchedule', scheduleSchema],
    ['votePoll', pollVoteSchema],
    ['startProcessorTopup', topupSchema],
    ['sendSupportMessage', supportMessageSchema],
    ['saveBeneficiary', beneficiaryLabelSchema],
    ['adminCorrectSettlement', settlementCorrectionSchema],
    ['adminSaveMessageTemplate', templateTextSchema],
    ['adminPreviewMessageTemplate', templateTextSchema],
  ];
  const sameRules = (operation: string, form: z.ZodObject) => {
    const input = inputOf(operation);
    for (const [field, rule] of Object.entries(form.shape)) {
      expect(Object.keys(input.shape), field).toContain(field);
      // A form field may accept a friendlier spelling first (z.preprocess): its rule is the piped schema.
      const own = rule instanceof z.ZodPipe && rule.in instanceof z.ZodTransform ? rule.out : rule;
      expect(json(own as z.ZodType), `${operation}.${field}`).toEqual(json(input.shape[field] as z.ZodType));
    }
  };
  for (const [operation, form] of forms)
    it(`${operation}: every field of the form has the operation's rule`, () => sameRules(operation, form));

  // The forms of the kinds that keep their buy screen in their folder of the buy feature: each
  // web/src/features/buy/kinds/<kind>/schemas.ts, found here, says which operation each of its forms fills (`forms`,
  // web/src/app/kinds.ts KindForms), so a new kind's forms are checked without a line in this file.
  const kinds = new URL('../../web/src/features/buy/kinds/', import.meta.url);
  const withSchemas = readdirSync(kinds, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .filter((kind) => readdirSync(new URL(`${kind}/`, kinds)).includes('schemas.ts'));
  it("finds the kinds' form schemas in their folders (issue 32's kinds at least)", () => {
    expect(withSchemas).toEqual(expect.arrayContaining(['airtime-cash', 'esim', 'flights', 'social']));
  });
  for (const kind of withSchemas)
    it(`${kind}: every field of each of its forms has the rule of the operation it fills`, async () => {
      const schemas = (await import(`../../web/src/features/buy/kinds/${kind}/schemas.ts`)) as Record<string, unknown> & {
        forms?: () => [string, z.ZodObject][];
      };
      expect(typeof schemas.forms, `${kind}/schemas.ts exports forms`).toBe('function');
      const forms = schemas.forms!();
      expect(forms.length).toBeGreaterThan(0);
      for (const [operation, form] of forms) sameRules(operation, form);
      // Every field of every form schema the file exports is in a form checked above.
      const checked = new Set(forms.flatMap(([, form]) => Object.values(form.shape)));
      for (const [name, schema] of Object.entries(schemas))
        if (schema instanceof z.ZodObject)
          for (const [field, rule] of Object.entries(schema.shape)) expect(checked.has(rule), `${kind} ${name}.${field}`).toBe(true);
    });

  it('the transfer form refuses what the service refuses: below ₦50, above its maximum, a bad username', () => {
    const ok = { username: '@ada_1', amount: 50, note: '' };
    expect(transferSchema.safeParse(ok).success).toBe(true);
    expect(transferSchema.safeParse({ ...ok, amount: 1 }).success).toBe(false);
    expect(transferSchema.safeParse({ ...ok, amount: 100_000_001 }).success).toBe(false);
    expect(transferSchema.safeParse({ ...ok, amount: 50.001 }).success).toBe(false);
    expect(transferSchema.safeParse({ ...ok, username: 'a b' }).success).toBe(false);
    expect(transferSchema.safeParse({ ...ok, note: 'x'.repeat(141) }).success).toBe(false);
  });

  it('the template editor refuses what the service refuses: an empty or blank body, a subject over 200 characters', () => {
    expect(templateTextSchema.safeParse({ subject: 'Your code', body: 'Your code is {{code}}' }).success).toBe(true);
    expect(templateTextSchema.safeParse({ subject: '', body: ' ' }).success).toBe(false);
    expect(templateTextSchema.safeParse({ subject: 'x'.repeat(201), body: 'x' }).success).toBe(false);
    expect(templateTextSchema.safeParse({ body: 'x'.repeat(2001) }).success).toBe(false);
  });

  it('the bill forms refuse what the purchases refuse: a short number, a short IUC or meter, an amount under the floor', () => {
    expect(airtimeSchema.safeParse({ network: 'mtn', phone: '08031234567', amount: 50 }).success).toBe(true);
    expect(airtimeSchema.safeParse({ network: 'mtn', phone: '0803123', amount: 50 }).success).toBe(false);
    expect(airtimeSchema.safeParse({ network: 'mtn', phone: '08031234567', amount: 49 }).success).toBe(false);
    expect(cableSchema.safeParse({ identifier: 'dstv', iuc: '123456789', plan_id: 'p', phone: '08031234567' }).success).toBe(false);
    expect(
      electricitySchema.safeParse({ plan: 'ikeja', type: 'prepaid', meter: '1234567890', amount: 1000, phone: '08031234567' }).success,
    ).toBe(false);
    expect(bettingSchema.safeParse({ betting_company: 'bet9ja', customer_id: 'ab', amount: 100 }).success).toBe(false);
  });
});
