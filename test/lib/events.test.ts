import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Part } from '../../src/db/parts.js';
import { EventBus } from '../../src/lib/events.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { statementsOfEither } from '../helpers/statements.js';

/** The in-process event bus: subscribers are parts of the emitter's statement, each saying whom it concerns. */
describe('EventBus', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => h?.close());

  const payload = (userId: string) => ({ userId, amount: 5n, source: 'transfer' as const, reference: `r_${randomUUID()}` });
  /** A table the probe subscribers write to, and a part that writes the event's user to it only where `only` holds. */
  const probe = async () => {
    const table = sql.raw(`probe_${randomUUID().replace(/-/g, '').slice(0, 8)}`);
    await h.app.services.db.execute(sql`CREATE TABLE ${table} (user_id uuid, tag text)`);
    return {
      part: (userId: string, tag: string, only = sql`true`): Part => ({
        ctes: (when, name) => sql`${name('w')} AS (INSERT INTO ${table} SELECT ${userId}::uuid, ${tag}::text FROM ${when} WHERE ${only})`,
      }),
      seen: async () =>
        (
          (await h.app.services.db.execute(sql`SELECT user_id::text AS user_id, tag FROM ${table} ORDER BY tag`)).rows as {
            user_id: string;
            tag: string;
          }[]
        ).map((r) => `${r.tag}:${r.user_id}`),
    };
  };

  it('emit writes every subscriber part, each its own statement, in the caller transaction; a null part writes nothing', async () => {
    const db = h.app.services.db;
    const bus = new EventBus();
    const p = await probe();
    const [u1, u2] = [randomUUID(), randomUUID()];
    bus.on('wallet.credited', (e) => p.part(e.userId, 'always'));
    bus.on('wallet.credited', (e) => (e.userId === u2 ? p.part(e.userId, 'some') : null));
    const texts = await statementsOfEither(async () => {
      await db.transaction(async (tx) => {
        await bus.emit(tx, 'wallet.credited', payload(u1));
        await bus.emit(tx, 'wallet.credited', payload(u2));
      });
    });
    expect(await p.seen()).toEqual([`always:${u1}`, `always:${u2}`, `some:${u2}`]);
    // A statement per part (sent together, one round trip per emit on PostgreSQL): no subscriber's SQL runs in another's.
    const writes = texts.filter((t) => t.includes('INSERT INTO probe_'));
    expect(writes).toHaveLength(3);
    expect(writes.every((t) => t.split('INSERT INTO probe_').length === 2)).toBe(true);
  });

  it('a rolled-back emitter leaves none of its subscribers writes', async () => {
    const db = h.app.services.db;
    const bus = new EventBus();
    const p = await probe();
    const u = randomUUID();
    bus.on('wallet.credited', (e) => p.part(e.userId, 'always'));
    await expect(
      db.transaction(async (tx) => {
        await bus.emit(tx, 'wallet.credited', payload(u));
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    expect(await p.seen()).toEqual([]);
  });

  it('a part that says in its own SQL whom it concerns writes nothing for the others (an open loan, say)', async () => {
    const db = h.app.services.db;
    const bus = new EventBus();
    const p = await probe();
    const [u1, u2] = [randomUUID(), randomUUID()];
    bus.on('wallet.credited', (e) => p.part(e.userId, 'loan', sql`${e.userId}::uuid = ${u2}::uuid`));
    await bus.emit(db, 'wallet.credited', payload(u1));
    await bus.emit(db, 'wallet.credited', payload(u2));
    expect(await p.seen()).toEqual([`loan:${u2}`]);
  });

  it('parts ride on a ledger posting: written when it posts, not when it is refused', async () => {
    const { db, ledger } = h.app.services;
    const bus = new EventBus();
    const p = await probe();
    const u = randomUUID();
    bus.on('wallet.credited', (e) => p.part(e.userId, 'credited'));
    const post = (kobo: bigint) =>
      ledger.postAlone(db, {
        reference: `ev_${randomUUID()}`,
        type: 'wallet_debit',
        description: 'probe',
        entries: [
          { account: { user: u, kind: 'wallet' }, amount: -kobo },
          { account: { system: 'revenue' }, amount: kobo },
        ],
        parts: bus.parts('wallet.credited', payload(u)),
      });
    await expect(post(100n)).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    expect(await p.seen()).toEqual([]);
  });
});
