import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { SECOND } from '../../src/kernel/clock.js';
import { floatBalance, fundFloat, PENDING_RESOLVE_MS, placeOrder, queryOrder } from '../../src/sandbox/vtu/engine.js';
import { createHarness, usingPostgres, type Harness } from '../helpers/harness.js';
import { statementsOf } from '../helpers/statements.js';

// The simulators' order engine (docs/design.md §8): one statement places an order against the provider's float. Each test
// uses a provider name of its own, so floats never mix. On PostgreSQL the parallel cases race for real.

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

let seq = 0;
const provider = () => `t${Date.now().toString(36)}${seq++}`;
const order = (p: string, requestId: string, recipient = '08031234567', amount = 10_000n) => ({
  provider: p,
  requestId,
  service: 'airtime',
  recipient,
  product: 'mtn',
  amount,
});
const ordersOf = (p: string) =>
  rows<{ request_id: string; status: string }>(
    h.app.services.db,
    sql`SELECT request_id, status FROM sandbox_vtu_orders WHERE provider = ${p} ORDER BY request_id`,
  );

describe('placing an order', () => {
  it('refuses an order the float does not cover and leaves no trace; the same request id goes through once funded', async () => {
    const { db } = h.app.services;
    const p = provider();
    expect((await placeOrder(db, h.clock, order(p, 'r1'))).kind).toBe('low_float');
    await fundFloat(db, h.clock, p, 5_000n, 'f1');
    expect((await placeOrder(db, h.clock, order(p, 'r1'))).kind).toBe('low_float');
    expect(await ordersOf(p)).toEqual([]);
    expect(await floatBalance(db, p)).toBe(5_000n);

    await fundFloat(db, h.clock, p, 10_000n, 'f2');
    const placed = await placeOrder(db, h.clock, order(p, 'r1'));
    expect(placed.kind).toBe('placed');
    if (placed.kind !== 'placed') return;
    expect(placed.order).toMatchObject({ provider: p, request_id: 'r1', service: 'airtime', amount: '10000', status: 'delivered' });
    expect(new Date(placed.order.created_at).getTime()).toBe(h.clock.now().getTime());
    expect(await floatBalance(db, p)).toBe(5_000n);
  });

  it('answers a repeated request id as a duplicate with the first order, and debits the float once, even when the float is now short', async () => {
    const { db } = h.app.services;
    const p = provider();
    await fundFloat(db, h.clock, p, 15_000n, 'f1');
    expect((await placeOrder(db, h.clock, order(p, 'r1'))).kind).toBe('placed');
    const again = await placeOrder(db, h.clock, order(p, 'r1'));
    expect(again.kind).toBe('duplicate');
    if (again.kind === 'duplicate') expect(again.order).toMatchObject({ request_id: 'r1', status: 'delivered', amount: '10000' });
    expect(await floatBalance(db, p)).toBe(5_000n);
  });

  it('records a failing recipient as failed without touching the float', async () => {
    const { db } = h.app.services;
    const p = provider();
    const failed = await placeOrder(db, h.clock, order(p, 'r1', '08031231111'));
    expect(failed.kind).toBe('placed');
    if (failed.kind === 'placed') expect(failed.order).toMatchObject({ status: 'failed', message: 'Transaction failed at the network' });
    expect(await floatBalance(db, p)).toBe(0n);
  });

  it('under parallel orders, places exactly what the float covers and debits it exactly', async () => {
    const { db } = h.app.services;
    const p = provider();
    await fundFloat(db, h.clock, p, 25_000n, 'f1');
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => placeOrder(db, h.clock, order(p, `r${i}`))));
    expect(results.filter((r) => r.kind === 'placed')).toHaveLength(2);
    expect(results.filter((r) => r.kind === 'low_float')).toHaveLength(4);
    expect(await floatBalance(db, p)).toBe(5_000n);
    expect(await ordersOf(p)).toHaveLength(2);
  });

  it('under parallel retries of one request id, places it once and answers the rest as duplicates', async () => {
    const { db } = h.app.services;
    const p = provider();
    await fundFloat(db, h.clock, p, 100_000n, 'f1');
    const results = await Promise.all(Array.from({ length: 6 }, () => placeOrder(db, h.clock, order(p, 'same'))));
    expect(results.filter((r) => r.kind === 'placed')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'duplicate')).toHaveLength(5);
    expect(await floatBalance(db, p)).toBe(90_000n);
  });

  it.skipIf(!usingPostgres)('is one statement, and a settled order is read with one', async () => {
    const { db } = h.app.services;
    const p = provider();
    await fundFloat(db, h.clock, p, 10_000n, 'f1');
    const texts = await statementsOf(async () => {
      expect((await placeOrder(db, h.clock, order(p, 'r1'))).kind).toBe('placed');
      expect((await queryOrder(db, h.clock, p, 'r1'))?.status).toBe('delivered');
    });
    expect(texts).toHaveLength(2);
  });
});

describe('querying an order', () => {
  it('reads a pending order as pending until its time, then settles it; a failed one gives the float back once', async () => {
    const { db } = h.app.services;
    const p = provider();
    await fundFloat(db, h.clock, p, 10_000n, 'f1');
    expect((await placeOrder(db, h.clock, order(p, 'r1', '08031233333'))).kind).toBe('placed');
    expect(await floatBalance(db, p)).toBe(0n);
    expect((await queryOrder(db, h.clock, p, 'r1'))?.status).toBe('pending');
    h.clock.advance(PENDING_RESOLVE_MS + SECOND);
    const [a, b] = await Promise.all([queryOrder(db, h.clock, p, 'r1'), queryOrder(db, h.clock, p, 'r1')]);
    expect([a?.status, b?.status]).toEqual(['failed', 'failed']);
    expect(await floatBalance(db, p)).toBe(10_000n);
    expect(await queryOrder(db, h.clock, p, 'missing')).toBeNull();
  });

  it('settles a pending_ok order as delivered', async () => {
    const { db } = h.app.services;
    const p = provider();
    await fundFloat(db, h.clock, p, 10_000n, 'f1');
    await placeOrder(db, h.clock, order(p, 'r1', '08031232222'));
    h.clock.advance(PENDING_RESOLVE_MS + SECOND);
    expect((await queryOrder(db, h.clock, p, 'r1'))?.status).toBe('delivered');
    expect(await floatBalance(db, p)).toBe(0n);
  });
});
