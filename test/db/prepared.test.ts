import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { createHarness, usingPostgres, type Harness } from '../helpers/harness.js';

/** DATABASE_PREPARED_STATEMENTS (issue 11): parameterised statements are named, so a connection plans each once. */
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

  it('DATABASE_PREPARED_STATEMENTS=false leaves statements unnamed', async () => {
    expect(await preparedOnThisConnection(off)).toEqual([]);
  });
});
