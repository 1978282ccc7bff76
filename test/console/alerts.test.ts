import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { MINUTE } from '../../src/kernel/clock.js';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { user } from '../helpers/factories.js';

// Issue 44: what waits too long, low floats and a low pool are e-mailed and pushed to the operators whose role may call
// the operation that resolves it (the registry's roles), once until it clears, and again if it comes back.
let h: Harness;
let admin: TestUser;
let finance: TestUser;
let support: TestUser;
const P = '/_serverFn/';
const adminCall = (method: 'GET' | 'POST', name: string, who: TestUser, data?: Record<string, unknown>) =>
  call(h, method, `${P}${name}BearerAdmin`, data, { token: who.token });

/** The alerts' e-mails an address received, by subject (newest first). */
const alertMail = async (who: TestUser) => {
  const items = (await h.app.inject({ method: 'GET', url: `/sandbox/mailbox?to=${encodeURIComponent(who.email)}` })).json().items as {
    subject: string;
    text: string;
  }[];
  return items.filter((m) => /^(Waiting too long|Low float|Low collections pool)/.test(m.subject));
};
const subjects = async (who: TestUser) => (await alertMail(who)).map((m) => m.subject).sort();

/** One run of the schedule: the clock moves on, the slot's job runs with the mail it sends. */
const run = async (minutes: number) => {
  h.clock.advance(minutes * MINUTE);
  await h.app.services.jobs.tickCrons();
  await h.app.services.jobs.drain();
};
/** A fresh session (the clock moves past the tokens' lifetime). */
const renew = async (who: TestUser) => Object.assign(who, await signIn(h, who.email));

beforeAll(async () => {
  h = await createHarness({
    env: {
      ADMIN_EMAILS: 'admin@example.com',
      OPERATOR_2FA: 'optional',
      ALERT_AFTER_MINUTES: '{"approvals":30,"support":60}',
      ALERT_FLOAT_BELOW: '1000',
    },
  });
  h.clock.set('2026-03-02T09:01:00Z');
  admin = await signIn(h, 'admin@example.com');
  finance = await signIn(h);
  support = await signIn(h);
  for (const [who, role] of [
    [finance, 'finance'],
    [support, 'support'],
  ] as const)
    expect((await adminCall('POST', 'adminGrantRole', admin, { email: who.email, role })).statusCode).toBe(200);
});
afterAll(async () => h?.close());

describe('operators are alerted by the roles that can act (issue 44)', () => {
  it('low floats go to admin and finance (adminFundProviderFloat), once while they hold', async () => {
    await run(0);
    const floats = [
      'Low float: provider A at ₦0.00',
      'Low float: provider B at ₦0.00',
      'Low float: provider C at ₦0.00',
      'Low float: provider D at ₦0.00',
    ];
    expect(await subjects(admin)).toEqual(floats);
    expect(await subjects(finance)).toEqual(floats);
    expect(await subjects(support)).toEqual([]);
    // The same floats, still low, five minutes later: nothing new.
    await run(5);
    expect(await subjects(finance)).toEqual(floats);
    // Pushed too: the notice is in the operator's notifications (the push and e-mail channels hang off it).
    const inbox = await call(h, 'GET', `${P}listNotificationsBearerNotifications`, undefined, { token: finance.token });
    expect(inbox.statusCode, inbox.body).toBe(200);
    expect(inbox.json().items.filter((n: { kind: string }) => n.kind === 'operator_alert')).toHaveLength(4);
  });

  it('an approval waiting past its threshold alerts admin and finance, not support, and again once it came back', async () => {
    const u = await user(h);
    const made = await adminCall('POST', 'adminAdjustWallet', admin, { userId: u.id, amount: 2500, reason: 'goodwill credit, ticket 9' });
    expect(made.json().status, made.body).toBe('pending');
    await run(20);
    expect((await subjects(finance)).filter((s) => s.startsWith('Waiting'))).toEqual([]);
    await run(15);
    const first = (await alertMail(finance)).filter((m) => m.subject.startsWith('Waiting'));
    expect(first.map((m) => m.subject)).toEqual(['Waiting too long: 1 approvals']);
    expect(first[0].text).toContain('the oldest for 35 minutes');
    expect(first[0].text).toContain('/console/approvals?status=pending');
    expect((await subjects(admin)).filter((s) => s.startsWith('Waiting'))).toEqual(['Waiting too long: 1 approvals']);
    expect(await subjects(support)).toEqual([]);

    // Still waiting: no second alert.
    await run(5);
    expect((await subjects(finance)).filter((s) => s.startsWith('Waiting'))).toHaveLength(1);

    // Decided: the alert clears; a new approval waiting too long is alerted again.
    await Promise.all([renew(admin), renew(finance)]);
    expect(
      (await adminCall('POST', 'adminRejectRequest', finance, { id: made.json().approval.id, reason: 'no ticket found' })).statusCode,
    ).toBe(200);
    await run(5);
    const again = await adminCall('POST', 'adminAdjustWallet', admin, { userId: u.id, amount: 3000, reason: 'goodwill credit, ticket 10' });
    expect(again.json().status, again.body).toBe('pending');
    await run(31);
    await renew(finance);
    expect((await subjects(finance)).filter((s) => s.startsWith('Waiting'))).toEqual([
      'Waiting too long: 1 approvals',
      'Waiting too long: 1 approvals',
    ]);
    expect(
      (await adminCall('POST', 'adminRejectRequest', finance, { id: again.json().approval.id, reason: 'no ticket found' })).statusCode,
    ).toBe(200);
  });

  it('a support thread awaiting a reply past its threshold alerts admin and support, not finance', async () => {
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
    await run(61);
    expect(await subjects(support)).toEqual(['Waiting too long: 1 support']);
    expect((await subjects(finance)).filter((s) => s.includes('support'))).toEqual([]);
    expect((await subjects(admin)).filter((s) => s.includes('support'))).toEqual(['Waiting too long: 1 support']);
  });

  it('a funded float clears its alert; a pool the funding took below zero is alerted', async () => {
    const { ledger, db } = h.app.services;
    await db.transaction(async (tx) => {
      await ledger.post(tx, {
        reference: `test_float_${randomUUID()}`,
        type: 'vtu_float_funding',
        description: 'test: a float funded beyond the pool',
        entries: [
          { account: { system: 'provider_float:a' }, amount: -500_000n },
          { account: { system: 'collections' }, amount: 500_000n },
        ],
      });
    });
    const before = (await subjects(finance)).length;
    await run(5);
    const after = await subjects(finance);
    expect(after.length).toBe(before + 1);
    expect(after).toContain('Low collections pool: ₦-5,000.00');
    // Provider A's float is funded: its alert cleared, and it is not sent again while funded.
    expect(after.filter((s) => s.startsWith('Low float: provider A'))).toHaveLength(1);
  });

  it("the dashboard's floats tile counts what the alerts do, by ALERT_FLOAT_BELOW and ALERT_POOL_BELOW, and for how long", async () => {
    const { ledger, db } = h.app.services;
    // Provider B's float funded with ₦500: above ₦0, still below ALERT_FLOAT_BELOW (₦1,000).
    await db.transaction(async (tx) => {
      await ledger.post(tx, {
        reference: `test_float_${randomUUID()}`,
        type: 'vtu_float_funding',
        description: 'test: a float funded below its threshold',
        entries: [
          { account: { system: 'provider_float:b' }, amount: -50_000n },
          { account: { system: 'collections' }, amount: 50_000n },
        ],
      });
    });
    await run(5);
    await renew(admin);
    const q = await adminCall('GET', 'adminDashboardQueues', admin);
    expect(q.statusCode, q.body).toBe(200);
    const floats = q.json().floats;
    expect(floats).toMatchObject({ low: ['b', 'c', 'd'], floatBelow: 1000, poolLow: true, poolBelow: 0 });
    const held = await rows<{ key: string }>(db, sql`SELECT key FROM operator_alerts ORDER BY key`);
    expect(held.map((r) => r.key).filter((k) => k.startsWith('float:') || k === 'pool')).toEqual(['float:b', 'float:c', 'float:d', 'pool']);
    // C and D were first found low at the first run, 2 hours and 32 minutes of runs ago (the alerts kept no earlier time).
    expect(floats.lowForSeconds).toBe(152 * 60);
  });
});
