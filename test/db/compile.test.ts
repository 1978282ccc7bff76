import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { compileSql } from '../../src/db/client.js';
import { accounts } from '../../src/ledger/schema.js';

/** compileSql (src/db/client.ts): our one-pass build of raw statements gives drizzle's text and parameters, or declines. */
const dialect = new PgDialect();
const same = (q: ReturnType<typeof sql>) => {
  const ours = compileSql(q);
  const theirs = dialect.sqlToQuery(q);
  expect(ours).not.toBeNull();
  expect(ours!.text).toBe(theirs.sql);
  expect(ours!.params).toEqual(theirs.params);
  ours!.params.forEach((p, i) => expect(p).toBe(theirs.params[i]));
  return ours!;
};

describe('compileSql', () => {
  it('numbers plain values as drizzle does, through nested sql, joins, raw text, lists and empty fragments', () => {
    const when = new Date('2026-11-23T10:00:00Z');
    const payload = { a: 1, nested: [1, 2] };
    const rows = [
      { code: 'user:a:wallet', amount: 100n },
      { code: 'user:b:wallet', amount: -100n },
    ];
    const values = sql.join(
      rows.map((r) => sql`(${r.code}::text, ${r.amount}::bigint)`),
      sql`, `,
    );
    const q = sql`WITH v(code, amount) AS (VALUES ${values}), x AS (SELECT ${sql.raw('1')} AS one)
      SELECT ${when}::timestamptz, ${payload}::jsonb, ${null}::text, ${true}, ${3.5}, ${"it's"} ${sql``} ${undefined}
      FROM v WHERE code IN ${['p', 'q', 'r']} AND ${sql.join([sql`a = ${1}`, sql`b = ${2}`], sql` AND `)}`;
    const built = same(q);
    expect(built.params).toHaveLength(15);
    expect(built.text).toContain('IN ($11, $12, $13)');
  });

  it('gives the same text for the same shape, whatever the values', () => {
    const shape = (n: number, s: string) => sql`SELECT ${n} AS n, ${s} AS s`;
    expect(compileSql(shape(1, 'a'))!.text).toBe(compileSql(shape(2, 'b'))!.text);
  });

  it('declines what only drizzle knows how to build: columns, tables, identifiers, inlined parameters', () => {
    expect(compileSql(sql`SELECT ${accounts.code} FROM ${accounts}`)).toBeNull();
    expect(compileSql(sql`SELECT 1 FROM ${sql.identifier('accounts')}`)).toBeNull();
    expect(compileSql(sql`SELECT ${1}`.inlineParams())).toBeNull();
    expect(compileSql(sql`SELECT ${sql`${'x'}`.inlineParams()}`)).toBeNull();
    expect(compileSql(sql`SELECT ${sql.placeholder('p')}`)).toBeNull();
  });
});
