import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { call, createHarness, expectLedgerOk, fundWallet, signIn, type Harness, type TestUser } from '../helpers/harness.js';

const P = '/_serverFn/';
let h: Harness;
let admin: TestUser;

const delivery = { fullName: 'Ada Obi', phone: '08031234567', address: '12 Allen Avenue', city: 'Ikeja', state: 'Lagos' };

async function buyer(naira = 100_000) {
  const u = await signIn(h);
  await h.app.services.pins.set(u.id, 'transaction', '1234');
  await fundWallet(h, u.id, naira);
  return u;
}

async function product(price: number, stock: number) {
  const res = await call(
    h,
    'POST',
    `${P}adminCreateProductBearerAdmin`,
    { name: `Phone case ${Math.random()}`, price, stock },
    { token: admin.token },
  );
  expect(res.statusCode).toBe(200);
  return res.json().product as { id: string; price: number; stock: number };
}

async function balance(u: TestUser) {
  return (await call(h, 'GET', `${P}getWalletStateBearerWallet`, undefined, { token: u.token })).json().balance as number;
}

const order = (u: TestUser, productId: string, quantity = 1, extra: Record<string, unknown> = {}) =>
  call(
    h,
    'POST',
    `${P}createMarketplaceOrderBearerMarketplace`,
    { productId, quantity, delivery, pin: '1234', ...extra },
    { token: u.token },
  );

beforeAll(async () => {
  h = await createHarness();
  admin = await signIn(h, 'admin@example.com');
});
afterAll(async () => h?.close());

describe('marketplace', () => {
  it('operators manage products; users see active ones only', async () => {
    const u = await buyer();
    const p = await product(2500, 3);
    const hidden = await product(100, 1);
    const upd = await call(
      h,
      'POST',
      `${P}adminUpdateProductBearerAdmin`,
      { id: hidden.id, active: false, price: 150.5, description: 'Blue' },
      { token: admin.token },
    );
    expect(upd.json().product).toMatchObject({ active: false, price: 150.5, stock: 1, description: 'Blue' });
    const cleared = await call(
      h,
      'POST',
      `${P}adminUpdateProductBearerAdmin`,
      { id: hidden.id, description: null },
      { token: admin.token },
    );
    expect(cleared.json().product).toMatchObject({ active: false, price: 150.5, description: null });
    const list = await call(h, 'GET', `${P}listMarketplaceProductsBearerMarketplace`, { limit: 100 }, { token: u.token });
    const ids = list.json().items.map((x: { id: string }) => x.id);
    expect(ids).toContain(p.id);
    expect(ids).not.toContain(hidden.id);
    // Users cannot call operator operations.
    const forbidden = await call(h, 'POST', `${P}adminCreateProductBearerAdmin`, { name: 'x1', price: 1, stock: 1 }, { token: u.token });
    expect(forbidden.statusCode).toBe(403);
    const bad = await call(
      h,
      'POST',
      `${P}adminCreateProductBearerAdmin`,
      { name: 'ok name', price: -5, stock: 1.5 },
      { token: admin.token },
    );
    expect(bad.statusCode).toBe(400);
    const inactive = await order(u, hidden.id);
    expect(inactive.statusCode).toBe(409);
  });

  it('an order debits the wallet, reserves stock, and is visible to its owner only', async () => {
    const u = await buyer(10_000);
    const other = await buyer(10_000);
    const p = await product(2500, 3);
    const res = await order(u, p.id, 2, { amount: 5000 });
    expect(res.statusCode).toBe(200);
    const o = res.json().order;
    expect(o).toMatchObject({
      status: 'processing',
      quantity: 2,
      unitPrice: 2500,
      amount: 5000,
      productId: p.id,
      delivery: { phone: '08031234567' },
    });
    expect(await balance(u)).toBe(5000);
    const stock = await rows<{ stock: number }>(h.app.services.db, sql`SELECT stock FROM marketplace_products WHERE id = ${p.id}`);
    expect(stock[0].stock).toBe(1);

    const mine = await call(h, 'GET', `${P}listMyMarketplaceOrdersBearerMarketplace`, {}, { token: u.token });
    expect(mine.json()).toMatchObject({ limit: 20, offset: 0, hasMore: false });
    expect(mine.json().items.map((x: { id: string }) => x.id)).toEqual([o.id]);
    expect((await call(h, 'GET', `${P}getMarketplaceOrderBearerMarketplace`, { id: o.id }, { token: u.token })).json().order.id).toBe(o.id);

    // Another user's id is 404, and their list is empty.
    const peek = await call(h, 'GET', `${P}getMarketplaceOrderBearerMarketplace`, { id: o.id }, { token: other.token });
    expect(peek.statusCode).toBe(404);
    expect((await call(h, 'GET', `${P}listMyMarketplaceOrdersBearerMarketplace`, {}, { token: other.token })).json().items).toEqual([]);
    await expectLedgerOk(h);
  });

  it('refuses a wrong PIN, a changed price, too little stock and too little money without charging', async () => {
    const u = await buyer(3000);
    const p = await product(2500, 2);
    expect((await order(u, p.id, 1, { pin: '9999' })).json().error.code).toBe('INVALID_PIN');
    expect((await order(u, p.id, 1, { amount: 2000 })).json().error.code).toBe('PRICE_CHANGED');
    const many = await order(u, p.id, 3);
    expect(many.statusCode).toBe(409);
    expect(many.json().error.code).toBe('OUT_OF_STOCK');
    const poor = await order(u, p.id, 2);
    expect(poor.json().error.code).toBe('INSUFFICIENT_FUNDS');
    expect(await balance(u)).toBe(3000);
    const stock = await rows<{ stock: number }>(h.app.services.db, sql`SELECT stock FROM marketplace_products WHERE id = ${p.id}`);
    expect(stock[0].stock).toBe(2); // the rolled-back order released its reservation
    const junk = await order(u, 'not-a-uuid', 0, { delivery: { fullName: '' } });
    expect(junk.statusCode).toBe(400);
    expect(junk.json().error.code).toBe('VALIDATION_FAILED');
    await expectLedgerOk(h);
  });

  it('concurrent orders against the last item sell it once', async () => {
    const p = await product(1000, 1);
    const buyers = await Promise.all(Array.from({ length: 6 }, () => buyer(5000)));
    const results = await Promise.all(buyers.map((u) => order(u, p.id)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409).every((r) => r.json().error.code === 'OUT_OF_STOCK')).toBe(true);
    const balances = await Promise.all(buyers.map(balance));
    expect(balances.filter((b) => b === 4000)).toHaveLength(1);
    expect(balances.filter((b) => b === 5000)).toHaveLength(5);
    const stock = await rows<{ stock: number }>(h.app.services.db, sql`SELECT stock FROM marketplace_products WHERE id = ${p.id}`);
    expect(stock[0].stock).toBe(0);

    // One buyer firing several orders at once for the same last items.
    const q = await product(1000, 2);
    const one = await buyer(10_000);
    const mine = await Promise.all(Array.from({ length: 5 }, () => order(one, q.id)));
    expect(mine.filter((r) => r.statusCode === 200)).toHaveLength(2);
    expect(await balance(one)).toBe(8000);
    await expectLedgerOk(h);
  });

  it('concurrent cancels refund exactly once and return the stock', async () => {
    const u = await buyer(10_000);
    const p = await product(1500, 4);
    const o = (await order(u, p.id, 2)).json().order;
    expect(await balance(u)).toBe(7000);
    const cancels = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(
          h,
          'POST',
          `${P}adminUpdateMarketplaceOrderBearerAdmin`,
          { id: o.id, status: 'cancelled', note: 'Supplier out' },
          { token: admin.token },
        ),
      ),
    );
    expect(cancels.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(cancels.filter((r) => r.statusCode === 409)).toHaveLength(4);
    expect(await balance(u)).toBe(10_000);
    const refunds = await rows<{ n: string }>(
      h.app.services.db,
      sql`SELECT count(*)::text AS n FROM ledger_transactions WHERE reference = ${`${o.reference}:refund`}`,
    );
    expect(refunds[0].n).toBe('1');
    const stock = await rows<{ stock: number }>(h.app.services.db, sql`SELECT stock FROM marketplace_products WHERE id = ${p.id}`);
    expect(stock[0].stock).toBe(4);
    // A cancelled order cannot be fulfilled afterwards.
    const late = await call(
      h,
      'POST',
      `${P}adminUpdateMarketplaceOrderBearerAdmin`,
      { id: o.id, status: 'fulfilled' },
      { token: admin.token },
    );
    expect(late.statusCode).toBe(409);
    const notes = await rows<{ kind: string }>(h.app.services.db, sql`SELECT kind FROM notifications WHERE user_id = ${u.id}`);
    expect(notes.map((n) => n.kind)).toEqual(['order_update']);
    await expectLedgerOk(h);
  });

  it('fulfilment moves the held money to revenue; operators list orders', async () => {
    const u = await buyer(10_000);
    const p = await product(800, 5);
    const o = (await order(u, p.id, 1)).json().order;
    const listed = await call(
      h,
      'GET',
      `${P}adminListMarketplaceOrdersBearerAdmin`,
      { status: 'processing', userId: u.id },
      { token: admin.token },
    );
    expect(listed.json().items.map((x: { id: string }) => x.id)).toEqual([o.id]);
    const done = await call(
      h,
      'POST',
      `${P}adminUpdateMarketplaceOrderBearerAdmin`,
      { id: o.id, status: 'fulfilled' },
      { token: admin.token },
    );
    expect(done.json().order.status).toBe('fulfilled');
    expect(await balance(u)).toBe(9200);
    const got = await call(h, 'GET', `${P}getMarketplaceOrderBearerMarketplace`, { id: o.id }, { token: u.token });
    expect(got.json().order.status).toBe('fulfilled');
    const missing = await call(
      h,
      'POST',
      `${P}adminUpdateMarketplaceOrderBearerAdmin`,
      { id: '00000000-0000-4000-8000-000000000000', status: 'fulfilled' },
      { token: admin.token },
    );
    expect(missing.statusCode).toBe(404);
    await expectLedgerOk(h);
  });
});
