import { readdirSync } from 'node:fs';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { is, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { createHarness, type Harness } from '../helpers/harness.js';

/**
 * One source of table types: the Drizzle table definitions must describe exactly what the migrations create
 * (every table, every column, its type and nullability), on PGlite and on PostgreSQL alike. A migration that adds
 * a column without its definition, or a definition nobody migrated, fails here.
 */
const SQL_TYPES: Record<string, string> = {
  bigserial: 'bigint',
  serial: 'integer',
  smallserial: 'smallint',
  timestamp: 'timestamp without time zone',
  'timestamp with time zone': 'timestamp with time zone',
  'timestamp without time zone': 'timestamp without time zone',
};
// Every table is defined in the schema.ts of the folder that owns it (a module, a service kind, the platform, the
// ledger, the job queue, the transport, the sandbox): all of them are found here, none is listed by hand.
const srcDir = new URL('../../src/', import.meta.url);
// A folder's tables are in its schema.ts, or a file named for them (http/idempotency-schema.ts).
const schemaFiles = readdirSync(srcDir, { recursive: true, encoding: 'utf8' }).filter((f) => /(^|\/)([a-z-]+-)?schema\.ts$/.test(f));
const schemas = await Promise.all(schemaFiles.map((f) => import(new URL(f, srcDir).href) as Promise<Record<string, unknown>>));
const schema = Object.assign({}, ...schemas);
const normalise = (t: string) => SQL_TYPES[t] ?? t.replace(/\(\d+(,\s*\d+)?\)$/, '').replace(/^varchar$/, 'character varying');

describe('Drizzle schema vs the migrated database', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('every table and column the migrations create is defined, with its type and nullability', async () => {
    const columns = await rows<{ table_name: string; column_name: string; data_type: string; is_nullable: string; udt_name: string }>(
      h.app.services.db,
      sql`SELECT table_name, column_name, data_type, is_nullable, udt_name FROM information_schema.columns
          WHERE table_schema = 'public' AND table_name <> 'schema_migrations'
            AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE')
          ORDER BY table_name, ordinal_position`,
    );
    const db = new Map<string, Map<string, { type: string; nullable: boolean }>>();
    for (const c of columns) {
      if (!db.has(c.table_name)) db.set(c.table_name, new Map());
      const type =
        c.data_type === 'ARRAY' ? `${c.udt_name.replace(/^_/, '')}[]` : c.data_type === 'USER-DEFINED' ? c.udt_name : c.data_type;
      db.get(c.table_name)!.set(c.column_name, { type, nullable: c.is_nullable === 'YES' });
    }
    const problems: string[] = [];
    const defined = new Set<string>();
    for (const value of Object.values(schema)) {
      if (!is(value, PgTable)) continue;
      const t = getTableConfig(value);
      defined.add(t.name);
      const actual = db.get(t.name);
      if (!actual) {
        problems.push(`${t.name}: defined in Drizzle, not created by the migrations`);
        continue;
      }
      const names = new Set(t.columns.map((c) => c.name));
      for (const col of t.columns) {
        const a = actual.get(col.name);
        if (!a) {
          problems.push(`${t.name}.${col.name}: defined in Drizzle, not in the database`);
          continue;
        }
        const want = normalise(col.getSQLType());
        const type = want.endsWith('[]') ? a.type.replace(/^int4/, 'integer').replace(/^int8/, 'bigint') : a.type;
        if (normalise(type) !== want) problems.push(`${t.name}.${col.name}: Drizzle ${want}, database ${a.type}`);
        if (a.nullable === col.notNull)
          problems.push(
            `${t.name}.${col.name}: Drizzle ${col.notNull ? 'NOT NULL' : 'nullable'}, database ${a.nullable ? 'nullable' : 'NOT NULL'}`,
          );
      }
      for (const name of actual.keys()) if (!names.has(name)) problems.push(`${t.name}.${name}: in the database, not in Drizzle`);
    }
    for (const name of db.keys()) if (!defined.has(name)) problems.push(`${name}: created by the migrations, not defined in Drizzle`);
    expect(problems).toEqual([]);
  });
});
