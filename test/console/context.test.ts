import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { createIntent, user } from '../payments/helpers.js';

// Issue 44: context for an operator: an approval says who asked and for whom; the audit log answers plain words and references.
let h: Harness;
let maker: TestUser;
let checker: TestUser;
const op = (name: string) => `/_serverFn/${name}BearerAdmin`;
const audit = async (input: Record<string, unknown>) => {
  const res = await call(h, 'GET', op('adminSearchAudit'), input, { token: checker.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as { operation: string }[];
};

beforeAll(async () => {
  h = await createHarness({ env: { ADMIN_EMAILS: 'maker@example.com,checker@example.com' } });
  maker = await signIn(h, 'maker@example.com');
  checker = await signIn(h, 'checker@example.com');
});
afterAll(async () => h.close());

describe('context for operators (issue 44)', () => {
  it('an approval request names its maker and its customer', async () => {
    const customer = await user(h);
    const made = await call(
      h,
      'POST',
      op('adminAdjustWallet'),
      { userId: customer.id, amount: 2500, reason: 'goodwill, ticket 77' },
      { token: maker.token },
    );
    expect(made.json().status, made.body).toBe('pending');
    const listed = await call(h, 'GET', op('adminListApprovals'), { status: 'pending' }, { token: checker.token });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().items.find((a: { id: string }) => a.id === made.json().approval.id)).toMatchObject({
      makerEmail: 'maker@example.com',
      customerId: customer.id,
      customerEmail: customer.email,
    });
    const rejected = await call(
      h,
      'POST',
      op('adminRejectRequest'),
      { id: made.json().approval.id, reason: 'no ticket' },
      { token: checker.token },
    );
    expect(rejected.statusCode, rejected.body).toBe(200);
  });

  it('the audit log answers a plain word ("reject") and a reference', async () => {
    const found = await audit({ words: 'reject' });
    expect(found.map((r) => r.operation)).toContain('adminRejectRequest');
    expect(found.every((r) => /reject/i.test(r.operation) || JSON.stringify(r).toLowerCase().includes('reject'))).toBe(true);
    expect((await audit({ words: 'freeze' })).map((r) => r.operation)).not.toContain('adminRejectRequest');

    const customer = await user(h);
    const intent = await createIntent(h, customer, 700);
    expect((await call(h, 'POST', op('adminVerifyTopup'), { reference: intent.reference }, { token: maker.token })).statusCode).toBe(200);
    expect((await audit({ words: intent.reference })).map((r) => r.operation)).toEqual(['adminVerifyTopup']);
    // A word like a LIKE pattern matches only itself.
    expect(await audit({ words: '%_%' })).toEqual([]);
  });
});
