import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../src/kernel/clock.js';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { user } from '../payments/helpers.js';

/** getWalletLimits: the tier's limits and what is left of today's, as the customer app shows them before the PIN. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const limits = async (u: TestUser) => {
  const r = await call(h, 'GET', '/_serverFn/getWalletLimitsBearerWallet', undefined, { token: u.token });
  expect(r.statusCode).toBe(200);
  return r.json();
};

describe('getWalletLimits', () => {
  it("says a Tier 1 customer's limits, counts purchases and debits into today's, and starts again the next Lagos day", async () => {
    const u = await user(h, { tier: 1, pin: '1234', naira: 60_000 });
    expect(await limits(u)).toEqual({
      ok: true,
      tier: 1,
      dailyLimit: 50_000,
      spentToday: 0,
      leftToday: 50_000,
      balanceCap: 300_000,
      nextTier: { tier: 2, dailyLimit: 200_000, balanceCap: 500_000 },
    });
    const bought = await call(
      h,
      'POST',
      '/_serverFn/buyAirtimeBearerVTU',
      { network: 'mtn', phone: '08031234567', amount: 1000, pin: '1234' },
      { token: u.token, headers: { 'idempotency-key': `limits-${u.id}` } },
    );
    expect(bought.statusCode).toBe(200);
    const debited = await call(
      h,
      'POST',
      '/_serverFn/debitWalletFnBearerWallet',
      { amount: 40_000, note: 'rent', pin: '1234' },
      { token: u.token },
    );
    expect(debited.statusCode).toBe(200);
    const after = await limits(u);
    // The purchase's charged price (the airtime's face value less any discount) and the debit, both outflow.
    expect(after.spentToday).toBeGreaterThan(40_000);
    expect(after.spentToday).toBeLessThanOrEqual(41_000);
    expect(after.leftToday).toBe(50_000 - after.spentToday);

    // What it says is left is what the posting allows: a kobo more is refused with the same amount named.
    const over = await call(
      h,
      'POST',
      '/_serverFn/debitWalletFnBearerWallet',
      { amount: after.leftToday + 0.01, note: 'one kobo too many', pin: '1234' },
      { token: u.token },
    );
    expect(over.json().error.code).toBe('LIMIT_EXCEEDED');
    const exact = await call(
      h,
      'POST',
      '/_serverFn/debitWalletFnBearerWallet',
      { amount: after.leftToday, note: 'the rest', pin: '1234' },
      { token: u.token },
    );
    expect(exact.statusCode).toBe(200);
    expect(await limits(u)).toMatchObject({ spentToday: 50_000, leftToday: 0 });

    h.clock.advance(DAY);
    const again = await signIn(h, u.email); // access tokens live 15 minutes
    expect(await limits(again)).toMatchObject({ spentToday: 0, leftToday: 50_000 });
  });

  it('names no cap and no next tier at Tier 3, and the lowest tier above that raises the limits', async () => {
    const top = await user(h, { tier: 3 });
    expect(await limits(top)).toEqual({
      ok: true,
      tier: 3,
      dailyLimit: 5_000_000,
      spentToday: 0,
      leftToday: 5_000_000,
      balanceCap: null,
      nextTier: null,
    });
    const fresh = await user(h, { tier: 2 });
    expect(await limits(fresh)).toMatchObject({ tier: 2, spentToday: 0, leftToday: 200_000, nextTier: { tier: 3, balanceCap: null } });
    // Tier 1 has Tier 0's limits: a customer without KYC is pointed at Tier 2's.
    const none = await user(h);
    expect(await limits(none)).toMatchObject({
      tier: 0,
      leftToday: 50_000,
      nextTier: { tier: 2, dailyLimit: 200_000, balanceCap: 500_000 },
    });
  });

  it('refuses a caller without a session', async () => {
    const r = await call(h, 'GET', '/_serverFn/getWalletLimitsBearerWallet', undefined, {});
    expect(r.statusCode).toBe(401);
  });
});
