import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allOperations } from '../../src/modules/index.js';
import { authOf, serverFnPath, type AnyOperation } from '../../src/platform/operation.js';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';

// Issue 29: every operation's 400 names each wrong field in `issues` ({path, message}), and the sentences read for a
// person: the path travels beside the message, never inside it ("amount: amount must be at least 50 naira" was
// the old form), and a sentence starts with a capital.
let h: Harness;
let user: TestUser;
let admin: TestUser;
beforeAll(async () => {
  h = await createHarness();
  user = await signIn(h);
  admin = await signIn(h, 'admin@example.com');
}, 180_000);
afterAll(async () => h?.close());

// Ending the caller's session or account is not what this walk is about; their inputs are walked like the others'.
const SESSION_ENDING = new Set(['signOut', 'closeAccount', 'endWhatsappLink']);
const fieldsOf = (op: AnyOperation) => Object.keys(op.input.shape as Record<string, unknown>);

describe('field errors, registry-wide', () => {
  it('a wrong value in every field answers 400 with one issue per field, worded for people', async () => {
    const problems: string[] = [];
    let walked = 0;
    for (const op of allOperations.filter((o) => o.method === 'POST' && fieldsOf(o).length > 0)) {
      const token = authOf(op) === 'admin' ? admin.token : SESSION_ENDING.has(op.name) ? (await signIn(h)).token : user.token;
      // An object where every field expects a string, number, boolean or list.
      const input = Object.fromEntries(fieldsOf(op).map((f) => [f, { wrong: true }]));
      const res = await call(h, 'POST', serverFnPath(op), input, { token });
      if (res.statusCode !== 400) {
        problems.push(`${op.name}: ${res.statusCode} ${res.body.slice(0, 160)}`);
        continue;
      }
      walked++;
      const { code, message, issues } = res.json().error;
      if (code !== 'VALIDATION_FAILED' || !Array.isArray(issues) || issues.length === 0) {
        problems.push(`${op.name}: ${code} without issues`);
        continue;
      }
      if (/^[a-z_.]+: /.test(message)) problems.push(`${op.name}: message carries its path: ${message}`);
      for (const i of issues) {
        if (typeof i.path !== 'string' || !i.path || i.path === '(body)') problems.push(`${op.name}: issue without a field path`);
        if (/^[a-z]/.test(i.message)) problems.push(`${op.name}.${i.path}: not a sentence: ${i.message}`);
        if (i.message.startsWith(`${i.path} `) || i.message.startsWith(`${i.path}:`))
          problems.push(`${op.name}.${i.path}: repeats its path: ${i.message}`);
      }
    }
    expect(problems).toEqual([]);
    expect(walked).toBeGreaterThan(50);
  });

  it('the amount bounds read as people write naira', async () => {
    const res = await call(
      h,
      'POST',
      '/_serverFn/debitWalletFnBearerWallet',
      { amount: 10, note: 'x', pin: '1234' },
      { token: user.token },
    );
    expect(res.json().error).toMatchObject({
      message: 'Amount must be at least ₦50',
      issues: [{ path: 'amount', message: 'Amount must be at least ₦50' }],
    });
    const tooMuch = await call(h, 'POST', '/_serverFn/createTopupIntentBearerWallet', { amount: 2_000_000 }, { token: user.token });
    expect(tooMuch.json().error.issues).toEqual([{ path: 'amount', message: 'Amount can be at most ₦1,000,000' }]);
    // A message that starts with its field's name starts with the field's label.
    const plan = await call(
      h,
      'POST',
      '/_serverFn/buyDataBearerVTU',
      { network: 'mtn', plan_id: '', phone: '08031234567', amount: 100, pin: '1234' },
      { token: user.token },
    );
    expect(plan.json().error).toMatchObject({
      message: 'Plan ID is required',
      issues: [{ path: 'plan_id', message: 'Plan ID is required' }],
    });
  });
});
