import { noticeRowsPart } from '../helpers/notices.js';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plannedPerCall, rows } from '../../src/db/client.js';
import { createHarness, fundWallet, signIn, usingPostgres, type Harness } from '../helpers/harness.js';

/** DATABASE_PREPARED_STATEMENTS: parameterised statements are named, so a connection plans each once. */
describe.skipIf(!usingPostgres)(`named statements (${usingPostgres ? 'PostgreSQL' : 'skipped: PGlite has no connection pool'})`, () => {
  let h: Harness;
  let off: Harness;
  beforeAll(async () => {
    [h, off] = await Promise.all([createHarness(), createHarness({ env: { DATABASE_PREPARED_STATEMENTS: 'false' } })]);
  });
  afterAll(async () => Promise.all([h?.close(), off?.close()]));

  const preparedOnThisConnection = (x: Harness) =>
    x.app.services.db.transaction(async (tx) => {
      for (const n of [1, 2, 3]) await tx.execute(sql`SELECT ${n}::int + 40 AS answer`);
      return rows<{ name: string }>(tx, sql`SELECT name FROM pg_prepared_statements WHERE statement = ${'SELECT $1::int + 40 AS answer'}`);
    });

  it('a parameterised statement is prepared once per connection under a name derived from its text', async () => {
    const named = await preparedOnThisConnection(h);
    expect(named).toHaveLength(1);
    expect(named[0].name).toMatch(/^s_[0-9a-f]{24}$/);
  });

  it('a text used only once runs unnamed and leaves nothing prepared on the server', async () => {
    const text = `SELECT $1::int + 41 AS once_${Date.now()}`;
    const left = await h.app.services.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT ${1}::int + 41 AS ${sql.raw(`once_${text.split('once_')[1]}`)}`);
      return rows(tx, sql`SELECT name FROM pg_prepared_statements WHERE statement = ${text}`);
    });
    expect(left).toEqual([]);
  });

  it('a posting with riders has the same text every time, so it is prepared once, not once per call', async () => {
    const [a, b] = await Promise.all([signIn(h), signIn(h)]);
    await fundWallet(h, a.id, 100);
    const { ledger, db } = h.app.services;
    const texts = new Set<string>();
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const q = args[0] as { text?: string };
      if (typeof q === 'object' && q?.text?.startsWith('WITH v(')) texts.add(q.text);
      return (original as (...x: unknown[]) => unknown).apply(this, args);
    } as typeof original;
    try {
      for (let i = 0; i < 5; i++) {
        await ledger.postAlone(db, {
          reference: `same_text_${randomUUID()}`,
          type: 'transfer_out',
          description: `transfer ${i}`,
          entries: [
            { account: { user: a.id, kind: 'wallet' }, amount: -100n },
            { account: { user: b.id, kind: 'wallet' }, amount: 100n },
          ],
          parts: [
            noticeRowsPart([{ userId: a.id, title: 'sent', body: `${i}` }]),
            noticeRowsPart([{ userId: b.id, title: 'got', body: `${i}` }]),
          ],
        });
      }
    } finally {
      pg.Client.prototype.query = original;
    }
    expect(texts.size).toBe(1);
  });

  it('a statement marked plannedPerCall is never named (the job queue claims and completions among them)', async () => {
    const seen: { text: string; name?: string }[] = [];
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const q = args[0] as { text?: string; name?: string };
      if (typeof q === 'object' && q?.text) seen.push({ text: q.text, name: q.name });
      return (original as (...x: unknown[]) => unknown).apply(this, args);
    } as typeof original;
    const { db, jobs } = h.app.services;
    try {
      await db.transaction(async (tx) => {
        for (const n of [1, 2, 3]) await tx.execute(plannedPerCall(sql`SELECT ${n}::int + 42 AS answer`));
        expect(await rows(tx, sql`SELECT name FROM pg_prepared_statements WHERE statement LIKE ${'%$1::int + 42 AS answer'}`)).toEqual([]);
      });
      for (let i = 0; i < 3; i++) {
        await jobs.enqueue(db, 'outbox.email', { to: `planned${i}@example.com`, subject: 'planned', text: 'x' });
        await jobs.drain();
      }
    } finally {
      pg.Client.prototype.query = original;
    }
    const claims = seen.filter((s) => /UPDATE jobs SET status = 'running'|UPDATE jobs SET status = 'done'/.test(s.text));
    expect(claims.length).toBeGreaterThanOrEqual(6);
    expect(claims.filter((c) => c.name)).toEqual([]);
    // The rest are still named from their second use.
    expect(seen.some((s) => s.name)).toBe(true);
  });

  it('DATABASE_PREPARED_STATEMENTS=false leaves statements unnamed', async () => {
    expect(await preparedOnThisConnection(off)).toEqual([]);
  });
});
