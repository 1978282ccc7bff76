import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { call, createHarness, grantRoles, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { buyer, PIN, user } from '../helpers/factories.js';
import { createIntent } from '../payments/helpers.js';

// Issue 30: operators find a customer by what a caller on the phone can tell them, see everything about them in one
// call, and sign them out everywhere. Support may do all of it; finance may not.
let h: Harness;
let admin: TestUser;
let support: TestUser;
let finance: TestUser;

const op = (name: string) => `/_serverFn/${name}BearerAdmin`;
const search = (q: string, who = admin, extra: Record<string, unknown> = {}) =>
  call(h, 'GET', op('adminSearchCustomers'), { q, ...extra }, { token: who.token });

async function operator(role: 'support' | 'finance') {
  const u = await signIn(h);
  await grantRoles(h, [[u, role]]);
  return u;
}

beforeAll(async () => {
  h = await createHarness();
  admin = await signIn(h, 'admin@example.com');
  support = await operator('support');
  finance = await operator('finance');
});
afterAll(async () => h.close());

describe('customer look-ups', () => {
  it('finds a customer by e-mail (or its beginning), phone, username, top-up or purchase reference, account number or id', async () => {
    const u = await user(h, { email: 'ada.lovelace@example.com', username: 'ada_l', phone: '08031239876' });
    const i = await createIntent(h, u, 1000);
    await h.app.services.db.execute(
      sql`INSERT INTO dedicated_accounts (user_id, processor, customer_code, account_number, account_name, bank_name, created_at)
          VALUES (${u.id}, 'sandbox', 'CUS_ada', '9912345678', 'Ada Lovelace', 'Wema Bank', ${h.clock.now()})`,
    );
    const found = async (q: string) =>
      (await search(q)).json().items.map((c: { userId: string; matchedBy: string }) => [c.userId, c.matchedBy]);
    expect(await found('ada.lovelace@example.com')).toEqual([[u.id, 'email']]);
    expect(await found('ADA.LOVE')).toEqual([[u.id, 'email']]);
    expect(await found('+2348031239876')).toEqual([[u.id, 'phone']]);
    expect(await found('0803 123 9876')).toEqual([[u.id, 'phone']]);
    expect(await found('ada_l')).toEqual([[u.id, 'username']]);
    expect(await found(i.reference)).toEqual([[u.id, 'reference']]);
    expect(await found('9912345678')).toEqual([[u.id, 'account_number']]);
    expect(await found(u.id)).toEqual([[u.id, 'id']]);
    expect(await found('nobody-here@example.com')).toEqual([]);
    // LIKE's wildcards are literal: '%' finds nobody.
    expect(await found('%%%')).toEqual([]);
    const b = await buyer(h);
    const bought = await call(
      h,
      'POST',
      '/_serverFn/buyAirtimeBearerVTU',
      { network: 'mtn', phone: '08031234567', amount: 100, pin: PIN },
      { token: b.token },
    );
    expect(await found(bought.json().transaction.reference)).toEqual([[b.id, 'reference']]);

    const item = (await search(u.email)).json();
    expect(item).toMatchObject({ limit: 20, offset: 0, hasMore: false });
    expect(item.items[0]).toMatchObject({ email: u.email, username: 'ada_l', phone: '08031239876', frozen: false, status: 'active' });
    expect((await search('ab')).statusCode).toBe(400);
    expect((await search('example.com', admin, { limit: 1 })).statusCode).toBe(200);
  });

  it('sorts the matches newest (the default), oldest or by e-mail, from a fixed list', async () => {
    const b = await user(h, { email: 'sortcase.b@example.com' });
    h.clock.advance(60_000);
    const a = await user(h, { email: 'sortcase.a@example.com' });
    h.clock.advance(60_000);
    const c = await user(h, { email: 'sortcase.c@example.com' });
    const ids = async (sort?: string) =>
      (await search('sortcase.', admin, sort ? { sort } : {})).json().items.map((x: { userId: string }) => x.userId);
    expect(await ids()).toEqual([c.id, a.id, b.id]);
    expect(await ids('newest')).toEqual([c.id, a.id, b.id]);
    expect(await ids('oldest')).toEqual([b.id, a.id, c.id]);
    expect(await ids('email')).toEqual([a.id, b.id, c.id]);
    const bad = await search('sortcase.', admin, { sort: 'email; DROP TABLE users' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('Sort must be newest, oldest or email');
  });

  it('one call answers profile, KYC, wallet and ledger, sessions and devices, purchases, top-ups and the freeze', async () => {
    const b = await buyer(h, 3000);
    await call(
      h,
      'POST',
      '/_serverFn/buyAirtimeBearerVTU',
      { network: 'mtn', phone: '08031234567', amount: 200, pin: PIN },
      { token: b.token },
    );
    await createIntent(h, b, 500);
    const get = (who = admin) => call(h, 'GET', op('adminGetCustomer'), { userId: b.id }, { token: who.token });
    const c = (await get()).json();
    expect(c.profile).toMatchObject({ id: b.id, email: b.email, kycTier: 1, status: 'active' });
    expect(c).toMatchObject({ frozen: false, freeze: null, wallet: { balance: 2800 } });
    expect(c.wallet.recent.map((l: { type: string }) => l.type)).toEqual(['vtu_purchase', 'adjustment']);
    expect(c.sessions[0]).toMatchObject({ status: 'active' });
    expect(c.purchases[0]).toMatchObject({ amount: 200, recipient: '08031234567' });
    expect(c.topups[0]).toMatchObject({ amount: 500, status: 'pending' });
    expect(Array.isArray(c.devices)).toBe(true);
    expect(Array.isArray(c.kyc.submissions)).toBe(true);

    const freeze = await call(h, 'POST', op('adminFreezeCustomer'), { userId: b.id, reason: 'card dispute' }, { token: support.token });
    expect(freeze.statusCode, freeze.body).toBe(200);
    expect((await call(h, 'POST', op('adminFreezeCustomer'), { userId: b.id, reason: 'again' }, { token: admin.token })).statusCode).toBe(
      409,
    );
    expect((await get(support)).json()).toMatchObject({ frozen: true, freeze: { reason: 'card dispute', frozenBy: support.id } });
    expect((await search(b.email, support)).json().items[0].frozen).toBe(true);
    expect(
      (await call(h, 'POST', op('adminUnfreezeCustomer'), { userId: b.id, reason: 'dispute closed' }, { token: admin.token })).statusCode,
    ).toBe(200);
    expect(
      (await call(h, 'POST', op('adminUnfreezeCustomer'), { userId: b.id, reason: 'dispute closed' }, { token: admin.token })).statusCode,
    ).toBe(409);
    expect(
      (await call(h, 'GET', op('adminGetCustomer'), { userId: '00000000-0000-4000-8000-000000000000' }, { token: admin.token })).statusCode,
    ).toBe(404);
    expect((await call(h, 'POST', op('adminFreezeCustomer'), { userId: b.id }, { token: admin.token })).statusCode).toBe(400);
  });

  it('sign out everywhere ends every session; the customer signs in again', async () => {
    const u = await user(h);
    h.clock.advance(61_000);
    const second = await signIn(h, u.email);
    const out = await call(h, 'POST', op('adminSignOutCustomer'), { userId: u.id }, { token: support.token });
    expect(out.json()).toMatchObject({ userId: u.id, sessionsEnded: 2 });
    for (const t of [u.token, second.token])
      expect((await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: t })).statusCode).toBe(401);
    h.clock.advance(61_000);
    const again = await signIn(h, u.email);
    expect((await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: again.token })).statusCode).toBe(200);
  });

  it('support may look up, freeze and sign out; finance and customers may not', async () => {
    const u = await user(h);
    for (const who of [finance, u]) {
      expect((await search(u.email, who)).statusCode).toBe(403);
      expect((await call(h, 'POST', op('adminFreezeCustomer'), { userId: u.id, reason: 'nope' }, { token: who.token })).statusCode).toBe(
        403,
      );
    }
    expect((await search(u.email, support)).statusCode).toBe(200);
  });
});
