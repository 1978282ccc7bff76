import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../src/kernel/clock.js';
import { call, createHarness, fundWallet, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { buyer, PIN, user } from '../helpers/factories.js';

// Issue 44: "Waiting for an operator" counts what people wait on, each from its owner module, and forgets it once decided.
let h: Harness;
let maker: TestUser;
let checker: TestUser;
const P = '/_serverFn/';
const admin = (method: 'GET' | 'POST', name: string, who: TestUser, data?: Record<string, unknown>) =>
  call(h, method, `${P}${name}BearerAdmin`, data, { token: who.token });
const queues = async () => {
  const res = await admin('GET', 'adminDashboardQueues', checker);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

beforeAll(async () => {
  h = await createHarness({ env: { ADMIN_EMAILS: 'admin@example.com,checker@example.com' } });
  h.clock.set('2026-01-15T09:00:00Z');
  maker = await signIn(h, 'admin@example.com');
  checker = await signIn(h, 'checker@example.com');
});
afterAll(async () => h.close());

describe('waiting work on the dashboard (issue 44)', () => {
  it('nothing waits on a fresh platform', async () => {
    const q = await queues();
    expect(q.approvals).toEqual({ pending: 0, oldestAgeSeconds: null });
    expect(q.support).toEqual({ open: 0, awaitingReply: 0, oldestAwaitingSeconds: null });
    expect(q.reports).toEqual({ open: 0, oldestAgeSeconds: null });
  });

  it('a pending approval, an open support thread and an open report appear, and leave once decided', async () => {
    const u = await user(h);
    const made = await admin('POST', 'adminAdjustWallet', maker, { userId: u.id, amount: 2500, reason: 'goodwill credit, ticket 9' });
    expect(made.json().status, made.body).toBe('pending');

    const customer = await signIn(h);
    const thread = (await call(h, 'POST', `${P}getOrCreateThreadBearerSupport`, undefined, { token: customer.token })).json().thread;
    const sent = await call(
      h,
      'POST',
      `${P}sendSupportMessageBearerSupport`,
      { threadId: thread.id, body: 'Where is my data?' },
      { token: customer.token },
    );
    expect(sent.statusCode, sent.body).toBe(200);

    await fundWallet(h, customer.id, 1000);
    const reference = (await call(h, 'GET', `${P}getWalletStateBearerWallet`, undefined, { token: customer.token })).json().log[0]
      .reference;
    const reported = await call(
      h,
      'POST',
      `${P}createTransactionReportBearerReports`,
      { reference, category: 'wrong_amount', description: 'I was charged the wrong amount' },
      { token: customer.token },
    );
    expect(reported.statusCode, reported.body).toBe(200);

    h.clock.advance(10 * MINUTE);
    const q = await queues();
    expect(q.approvals.pending).toBe(1);
    expect(q.approvals.oldestAgeSeconds).toBe(600);
    expect(q.support).toEqual({ open: 1, awaitingReply: 1, oldestAwaitingSeconds: 600 });
    expect(q.reports).toEqual({ open: 1, oldestAgeSeconds: 600 });

    // A reply leaves the thread open but no longer awaiting one; closing it ends the wait.
    expect((await admin('POST', 'adminReplySupportThread', checker, { threadId: thread.id, body: 'On its way.' })).statusCode).toBe(200);
    expect((await queues()).support).toEqual({ open: 1, awaitingReply: 0, oldestAwaitingSeconds: null });

    const rejected = await admin('POST', 'adminRejectRequest', checker, { id: made.json().approval.id, reason: 'no ticket found' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect((await admin('POST', 'adminCloseSupportThread', checker, { threadId: thread.id })).statusCode).toBe(200);
    const resolved = await admin('POST', 'adminResolveTransactionReport', checker, {
      id: reported.json().report.id,
      note: 'Amount correct.',
    });
    expect(resolved.statusCode, resolved.body).toBe(200);

    const after = await queues();
    expect(after.approvals).toEqual({ pending: 0, oldestAgeSeconds: null });
    expect(after.support).toEqual({ open: 0, awaitingReply: 0, oldestAwaitingSeconds: null });
    expect(after.reports).toEqual({ open: 0, oldestAgeSeconds: null });
  });

  it('an approval past its expiry no longer waits', async () => {
    const u = await user(h);
    const made = await admin('POST', 'adminAdjustWallet', maker, { userId: u.id, amount: 3000, reason: 'goodwill credit, ticket 10' });
    expect(made.json().status, made.body).toBe('pending');
    expect((await queues()).approvals.pending).toBe(1);
    h.clock.advance(25 * HOUR);
    checker = await signIn(h, 'checker@example.com');
    expect((await queues()).approvals).toEqual({ pending: 0, oldestAgeSeconds: null });
  });

  it('a collections pool below zero has no days of headroom', async () => {
    const customer = await buyer(h);
    const bought = await call(
      h,
      'POST',
      '/api/v1/buyAirtime',
      { network: 'mtn', phone: '08031231234', amount: 500, pin: PIN },
      { token: customer.token },
    );
    expect(bought.statusCode, bought.body).toBe(200);
    // A float funded with more than the pool holds: the pool owes the floats, and there is burn to divide by.
    const { ledger, db } = h.app.services;
    await db.transaction(async (tx) => {
      await ledger.post(tx, {
        reference: `test_float_${randomUUID()}`,
        type: 'vtu_float_funding',
        description: 'test: a float funded beyond the pool',
        entries: [
          { account: { system: 'provider_float:a' }, amount: -100_000_000n },
          { account: { system: 'collections' }, amount: 100_000_000n },
        ],
      });
    });
    const res = await admin('GET', 'adminDashboardFloats', checker);
    expect(res.statusCode, res.body).toBe(200);
    const f = res.json();
    expect(f.collections.balance).toBeLessThan(0);
    expect(f.collections.daysOfHeadroom).toBeNull();
    expect(f.items.some((i: { burnPerDay: number }) => i.burnPerDay > 0)).toBe(true);
  });
});
