import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../../src/kernel/clock.js';
import { call, createHarness, expectLedgerOk, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { balance, createIntent, sandboxPay, topupCredits, user } from '../payments/helpers.js';

// Issue 44: top-ups that wait for an operator (a lost webhook, a different amount paid) and an operator's verify of one.
let h: Harness;
let admin: TestUser;
let support: TestUser;
const op = (name: string) => `/_serverFn/${name}BearerAdmin`;
const queues = async (who = admin) => {
  const res = await call(h, 'GET', op('adminDashboardQueues'), undefined, { token: who.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const verify = (who: TestUser, reference: string) => call(h, 'POST', op('adminVerifyTopup'), { reference }, { token: who.token });

beforeAll(async () => {
  h = await createHarness({ env: { ADMIN_EMAILS: 'admin@example.com' } });
  h.clock.set('2026-01-15T09:00:00Z');
  admin = await signIn(h, 'admin@example.com');
  await signIn(h, 'support@example.com');
  const granted = await call(h, 'POST', op('adminGrantRole'), { email: 'support@example.com', role: 'support' }, { token: admin.token });
  expect(granted.statusCode, granted.body).toBe(200);
  h.clock.advance(MINUTE + 1000);
  support = await signIn(h, 'support@example.com');
});
afterAll(async () => h.close());

describe('top-ups that wait (issue 44)', () => {
  it('a paid top-up whose webhook was lost waits after 5 minutes; one verify credits it once and flags the underpayment', async () => {
    expect((await queues()).topups).toEqual({
      pending: 0,
      oldestPendingSeconds: null,
      pendingAfterSeconds: 300,
      underpaid: 0,
      overpaid: 0,
    });
    const customer = await user(h);
    const intent = await createIntent(h, customer, 5000);
    // The customer pays ₦4,000 of ₦5,000 and the processor's webhook never arrives.
    const paid = await sandboxPay(h, { reference: intent.reference, outcome: 'success', webhook: false, amount: 4000 });
    expect(paid.json().webhook.delivered).toBe(false);

    h.clock.advance(4 * MINUTE);
    expect((await queues()).topups.pending).toBe(0);
    h.clock.advance(2 * MINUTE);
    expect((await queues()).topups).toMatchObject({ pending: 1, oldestPendingSeconds: 360 });

    // The support role verifies (it settles only what the processor reports); a second verify credits nothing more.
    const first = await verify(support, intent.reference);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ reference: intent.reference, status: 'success', amount: 5000, amountPaid: 4000, credited: true });
    const second = await verify(admin, intent.reference);
    expect(second.json()).toMatchObject({ status: 'success', credited: false });
    expect(await balance(h, customer)).toBe(4000);
    expect(await topupCredits(h, intent.reference)).toBe(1);
    await expectLedgerOk(h);

    expect((await queues(support)).topups).toMatchObject({ pending: 0, oldestPendingSeconds: null, underpaid: 1, overpaid: 0 });
    const listed = await call(h, 'GET', op('adminSearchPayments'), { kind: 'intents', paid: 'different' }, { token: admin.token });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().items.map((i: { reference: string }) => i.reference)).toEqual([intent.reference]);
  });

  it('an overpaid top-up is flagged; a matching one is not', async () => {
    const customer = await user(h);
    const over = await createIntent(h, customer, 1000);
    await sandboxPay(h, { reference: over.reference, outcome: 'success', amount: 1500 });
    const exact = await createIntent(h, customer, 700);
    await sandboxPay(h, { reference: exact.reference, outcome: 'success' });
    await h.app.services.jobs.drain();
    expect((await queues()).topups).toMatchObject({ underpaid: 1, overpaid: 1 });
    const listed = await call(h, 'GET', op('adminSearchPayments'), { kind: 'intents', paid: 'different' }, { token: admin.token });
    expect(new Set(listed.json().items.map((i: { reference: string }) => i.reference))).not.toContain(exact.reference);
    expect(await balance(h, customer)).toBe(2200);
    await expectLedgerOk(h);
  });

  it('an unknown reference is not found, and a customer cannot verify as an operator', async () => {
    expect((await verify(admin, 'top_NOPE')).statusCode).toBe(404);
    const customer = await user(h);
    const intent = await createIntent(h, customer, 500);
    expect((await call(h, 'POST', op('adminVerifyTopup'), { reference: intent.reference }, { token: customer.token })).statusCode).toBe(
      403,
    );
  });

  it('a provider with no float on our books is listed as low', async () => {
    const q = await queues();
    expect(q.floats.low.length).toBeGreaterThan(0);
    expect(q.floats.poolLow).toBe(false);
  });
});
