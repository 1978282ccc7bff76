import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '../../src/lib/events.js';
import { createHarness, type Harness } from '../helpers/harness.js';

/** The in-process event bus: subscribers' checks (SQL of the event's user), in emit, in prepare and inside a caller's read. */
describe('EventBus', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => h?.close());

  const payload = (userId: string) => ({ userId, amount: 5n, source: 'transfer' as const, reference: 'r1' });
  const probe = async () => {
    const table = `probe_${randomUUID().replace(/-/g, '').slice(0, 8)}`;
    await h.app.services.db.execute(sql.raw(`CREATE TABLE ${table} (user_id uuid)`));
    return {
      /** The check: the user is in the probe table. */
      applies: (userId: ReturnType<typeof sql>) => sql`EXISTS (SELECT 1 FROM ${sql.raw(table)} WHERE user_id = ${userId})`,
      add: (userId: string) => h.app.services.db.execute(sql`INSERT INTO ${sql.raw(table)} (user_id) VALUES (${userId})`),
    };
  };

  it('emit calls a subscriber only when its check says the event applies', async () => {
    const db = h.app.services.db;
    const bus = new EventBus();
    const calls: string[] = [];
    const p = await probe();
    const [u1, u2] = [randomUUID(), randomUUID()];
    await p.add(u2);
    bus.on('wallet.credited', async () => void calls.push('always'));
    bus.on('wallet.credited', async (_x, e) => void calls.push(`loan ${e.userId === u2}`), p.applies);
    await bus.emit(db, 'wallet.credited', payload(u1));
    await bus.emit(db, 'wallet.credited', payload(u2));
    expect(calls).toEqual(['always', 'always', 'loan true']);
  });

  it('prepare runs the checks at once and the returned emit only the subscribers that applied then', async () => {
    const db = h.app.services.db;
    const bus = new EventBus();
    const calls: string[] = [];
    const p = await probe();
    const u = randomUUID();
    bus.on('wallet.credited', async (x) => void calls.push(x === db ? 'repay in tx' : 'wrong executor'), p.applies);
    const none = await bus.prepare(db, 'wallet.credited', payload(u));
    await p.add(u); // too late for the prepared emit
    const one = await bus.prepare(db, 'wallet.credited', payload(u));
    expect([none.subscribers, one.subscribers]).toEqual([0, 1]);
    await none.emit(db);
    expect(calls).toEqual([]);
    await one.emit(db);
    expect(calls).toEqual(['repay in tx']);
  });

  it('checksSql answers every check inside a read the emitter makes anyway; no checks, no expression', async () => {
    const db = h.app.services.db;
    const bus = new EventBus();
    expect(bus.checksSql('wallet.credited', sql`NULL::uuid`)).toBeNull();
    const calls: string[] = [];
    const [p1, p2] = [await probe(), await probe()];
    const u = randomUUID();
    await p2.add(u);
    bus.on('wallet.credited', async () => void calls.push('first'), p1.applies);
    bus.on('wallet.credited', async () => void calls.push('unchecked'));
    bus.on('wallet.credited', async () => void calls.push('second'), p2.applies);
    const row = (await db.execute(sql`SELECT ${bus.checksSql('wallet.credited', sql`x.id`)} AS checks FROM (SELECT ${u}::uuid AS id) x`))
      .rows[0] as { checks: boolean[] };
    expect(row.checks).toEqual([false, true]);
    const prepared = bus.prepared('wallet.credited', payload(u), row.checks);
    expect(prepared.subscribers).toBe(2);
    await prepared.emit(db);
    expect(calls).toEqual(['unchecked', 'second']);
  });
});
