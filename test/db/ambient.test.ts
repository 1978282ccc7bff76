import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withAmbientTransaction } from '../../src/db/ambient.js';
import { rows, type Db } from '../../src/db/client.js';
import { createHarness, type Harness } from '../helpers/harness.js';

/**
 * The request's own transaction (src/db/ambient.ts) on the real database object services hold: what the admin
 * registry relies on to commit a call's effect with its audit row (issue 30). PGlite and PostgreSQL.
 */
let h: Harness;
let db: Db;
beforeAll(async () => {
  h = await createHarness();
  db = h.app.services.db;
  await db.execute(sql`CREATE TABLE ambient_probe (id int PRIMARY KEY)`);
});
afterAll(async () => h?.close());

const ids = async () => (await rows<{ id: number }>(db, sql`SELECT id FROM ambient_probe ORDER BY id`)).map((r) => Number(r.id));
const insert = (id: number) => db.execute(sql`INSERT INTO ambient_probe (id) VALUES (${id})`);

describe('withAmbientTransaction', () => {
  it('joins every use of the database object; a nested rollback or a caught failing statement spoils nothing else', async () => {
    await withAmbientTransaction(db, async () => {
      await insert(1);
      await expect(
        db.transaction(async (tx) => {
          await tx.execute(sql`INSERT INTO ambient_probe (id) VALUES (2)`);
          throw new Error('nested rollback');
        }),
      ).rejects.toThrow('nested rollback');
      await expect(insert(1)).rejects.toThrow(); // a unique violation, caught as services catch it
      await Promise.all([insert(3), rows(db, sql`SELECT count(*) FROM ambient_probe`), insert(4)]);
      // Inside, the transaction's own writes are visible through the database object.
      expect(await ids()).toEqual([1, 3, 4]);
    });
    expect(await ids()).toEqual([1, 3, 4]);
  });

  it('rolls back every write made through the database object when the work throws', async () => {
    await expect(
      withAmbientTransaction(db, async () => {
        await insert(10);
        await db.transaction((tx) => tx.execute(sql`INSERT INTO ambient_probe (id) VALUES (11)`));
        await rows(db, sql`INSERT INTO ambient_probe (id) VALUES (12) RETURNING id`);
        throw new Error('the audit insert failed');
      }),
    ).rejects.toThrow('the audit insert failed');
    expect(await ids()).toEqual([1, 3, 4]);
  });

  it('work still running after the commit uses the database as usual', async () => {
    let later: Promise<unknown> = Promise.resolve();
    await withAmbientTransaction(db, async () => {
      later = new Promise((r) => setTimeout(r, 30)).then(() => insert(20));
    });
    await later;
    expect(await ids()).toContain(20);
  });
});
