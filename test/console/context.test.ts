import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { buyer, PIN } from '../helpers/factories.js';
import { createIntent, sandboxPay, user } from '../payments/helpers.js';

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

  it("a purchase's resolution names its reference; the audit log finds its requery, request and approval by it", async () => {
    const customer = await buyer(h, 2000);
    const bought = await call(
      h,
      'POST',
      '/api/v1/buyAirtime',
      { network: 'mtn', phone: '08031234040', amount: 500, pin: PIN },
      { token: customer.token },
    );
    const { id, reference } = bought.json().transaction as { id: string; reference: string };
    expect(reference, bought.body).toMatch(/^vtu_/);
    expect((await call(h, 'POST', op('adminRequeryVtuTransaction'), { id }, { token: maker.token })).statusCode).toBe(200);
    const made = await call(
      h,
      'POST',
      op('adminResolveVtuTransaction'),
      { id, outcome: 'failed', note: 'provider confirmed: never delivered' },
      { token: maker.token },
    );
    expect(made.json().status, made.body).toBe('pending');
    const listed = await call(h, 'GET', op('adminListApprovals'), { status: 'pending' }, { token: checker.token });
    expect(listed.json().items.find((a: { id: string }) => a.id === made.json().approval.id)).toMatchObject({
      action: 'vtu_resolution',
      customerEmail: customer.email,
      reference,
    });
    const one = await call(h, 'GET', op('adminGetApproval'), { id: made.json().approval.id }, { token: checker.token });
    expect(one.json().approval.reference, one.body).toBe(reference);
    const approved = await call(h, 'POST', op('adminApproveRequest'), { id: made.json().approval.id }, { token: checker.token });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().approval.reference).toBe(reference);

    // The calls share the test clock's instant: compared in any order, without the searches themselves.
    const calls = ['adminApproveRequest', 'adminRequeryVtuTransaction', 'adminResolveVtuTransaction'];
    const found = async (input: Record<string, unknown>) =>
      (await audit(input))
        .map((r) => r.operation)
        .filter((o) => o !== 'adminSearchAudit')
        .sort();
    expect(await found({ words: reference })).toEqual(calls);
    // In any case, and as the exact target.
    expect(await found({ words: reference.toLowerCase() })).toEqual(calls);
    expect(await found({ targetId: reference })).toEqual(calls);
  });

  it("a settlement correction names the top-up's reference", async () => {
    const customer = await user(h);
    const intent = await createIntent(h, customer, 1500);
    await sandboxPay(h, { reference: intent.reference, outcome: 'success' });
    await h.app.services.jobs.drain();
    const found = await call(
      h,
      'GET',
      op('adminSearchPayments'),
      { kind: 'settlements', reference: intent.reference },
      { token: maker.token },
    );
    const settlement = found.json().items[0] as { id: string };
    const made = await call(
      h,
      'POST',
      op('adminCorrectSettlement'),
      { settlementId: settlement.id, amount: -500, reason: 'processor reversed ₦500 of it' },
      { token: maker.token },
    );
    expect(made.json().status, made.body).toBe('pending');
    const listed = await call(h, 'GET', op('adminListApprovals'), { status: 'pending' }, { token: checker.token });
    expect(listed.json().items.find((a: { id: string }) => a.id === made.json().approval.id)).toMatchObject({
      action: 'settlement_correction',
      reference: intent.reference,
    });
    const rejected = await call(
      h,
      'POST',
      op('adminRejectRequest'),
      { id: made.json().approval.id, reason: 'not reversed after all' },
      { token: checker.token },
    );
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect((await audit({ targetId: intent.reference })).map((r) => r.operation)).toEqual(['adminRejectRequest']);
  });
});
