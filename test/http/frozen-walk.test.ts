import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allOperations } from '../../src/modules/index.js';
import { authOf, serverFnPath, type AnyOperation } from '../../src/platform/operation.js';
import { rows } from '../../src/db/client.js';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { user } from '../helpers/factories.js';

// Issue 30: a customer an operator froze signs in and reads, but every operation that moves money answers 403
// ACCOUNT_FROZEN (registry gate `money`), and no operation that moves money lacks the gate.
let h: Harness;
let frozen: TestUser;
let admin: TestUser;

const customerOps = allOperations.filter((op) => authOf(op) === 'user');
const moneyOps = customerOps.filter((op) => op.gates?.money);
const send = (op: AnyOperation, token: string, input: Record<string, unknown> = {}) =>
  call(h, op.method, serverFnPath(op), input, { token });

beforeAll(async () => {
  h = await createHarness();
  admin = await signIn(h, 'admin@example.com');
  frozen = await user(h, { tier: 3, pin: '1234', naira: 5000, phone: '08031234567' });
  const r = await call(
    h,
    'POST',
    '/_serverFn/adminFreezeCustomerBearerAdmin',
    { userId: frozen.id, reason: 'chargeback under review' },
    { token: admin.token },
  );
  expect(r.statusCode, r.body).toBe(200);
});
afterAll(async () => h.close());

describe('frozen customers (registry walk)', () => {
  it('every operation that moves money declares the money gate: every PIN gate and every money rate class', () => {
    const missing = customerOps.filter((op) => (op.gates?.pin || op.rateLimit === 'money') && !op.gates?.money).map((op) => op.name);
    expect(missing).toEqual([]);
    // The known movers are among them (a walk that found nothing would prove nothing).
    for (const name of ['buyAirtime', 'buyData', 'transferWalletFn', 'debitWalletFn', 'createTopupIntent', 'takeLoan', 'createSavingsLock'])
      expect(moneyOps.map((op) => op.name)).toContain(name);
    // Operators' money actions are not the caller's money: four-eyes guards them instead.
    expect(allOperations.filter((op) => authOf(op) !== 'user' && op.gates?.money).map((op) => op.name)).toEqual([]);
  });

  it('every money operation answers 403 ACCOUNT_FROZEN, whatever the input, and moves nothing', async () => {
    const before = await rows(h.app.services.db, sql`SELECT count(*)::int AS n FROM ledger_entries`);
    for (const op of moneyOps) {
      for (const input of [{}, { amount: 500, pin: '1234' }]) {
        const res = await send(op, frozen.token, input);
        expect(res.statusCode, `${op.name} ${res.body}`).toBe(403);
        expect(res.json().error.code, op.name).toBe('ACCOUNT_FROZEN');
      }
    }
    expect(await rows(h.app.services.db, sql`SELECT count(*)::int AS n FROM ledger_entries`)).toEqual(before);
  });

  it('every read still works for the frozen customer, and the profile says frozen', async () => {
    for (const op of customerOps.filter((o) => o.method === 'GET')) {
      const res = await send(op, frozen.token);
      expect(res.statusCode, `${op.name} ${res.body}`).toBeLessThan(500);
      if (res.statusCode >= 400) expect(res.json().error.code, op.name).not.toBe('ACCOUNT_FROZEN');
      // A read without required inputs answers 200.
      if (op.input.safeParse({}).success) expect(res.statusCode, `${op.name} ${res.body}`).toBe(200);
    }
    const me = await call(h, 'GET', '/_serverFn/getProfileBearerSettings', undefined, { token: frozen.token });
    expect(me.json().profile).toMatchObject({ id: frozen.id, frozen: true });
    // Signing in again works while frozen (after the code cooldown).
    h.clock.advance(61_000);
    const again = await signIn(h, frozen.email);
    expect((await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: again.token })).statusCode).toBe(200);
  });

  it('the customer is told in the inbox, and unfreezing lets money move again', async () => {
    const inbox = await call(h, 'GET', '/_serverFn/listNotificationsBearerNotifications', undefined, { token: frozen.token });
    expect(inbox.json().items.map((n: { kind: string }) => n.kind)).toContain('account_frozen');
    const un = await call(
      h,
      'POST',
      '/_serverFn/adminUnfreezeCustomerBearerAdmin',
      { userId: frozen.id, reason: 'cleared' },
      { token: admin.token },
    );
    expect(un.statusCode, un.body).toBe(200);
    const buy = await call(
      h,
      'POST',
      '/_serverFn/buyAirtimeBearerVTU',
      { network: 'mtn', phone: '08031234567', amount: 100, pin: '1234' },
      { token: frozen.token },
    );
    expect(buy.statusCode, buy.body).toBe(200);
    const me = await call(h, 'GET', '/_serverFn/getProfileBearerSettings', undefined, { token: frozen.token });
    expect(me.json().profile.frozen).toBe(false);
    const after = await call(h, 'GET', '/_serverFn/listNotificationsBearerNotifications', undefined, { token: frozen.token });
    expect(after.json().items.map((n: { kind: string }) => n.kind)).toContain('account_unfrozen');
  });
});
