import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOwnership, checkRepository, ownerOf, tableUses } from '../../scripts/table-owners.js';

const root = path.resolve(import.meta.dirname, '../..');
const none = { reads: {}, writes: {} };

// Synthetic sources: two modules, a kind and the ledger each declaring a table.
const schemas = {
  'src/modules/identity/schema.ts': `export const users = pgTable('users', { id: uuid('id') });`,
  'src/modules/shop/schema.ts': `export const orders = pgTable(\n  'orders',\n  { id: uuid('id') },\n);`,
  'src/modules/vtu/kinds/flights/schema.ts': `export const offers = pgTable('flight_offers', {});`,
  'src/ledger/schema.ts': `export const accounts = pgTable('accounts', {});`,
};

describe('npm run lint:tables (scripts/table-owners.ts)', () => {
  it('derives each owner from the folder that declares the table', () => {
    const r = checkOwnership(schemas, none);
    expect(Object.fromEntries(r.owners)).toEqual({
      users: 'src/modules/identity',
      orders: 'src/modules/shop',
      flight_offers: 'src/modules/vtu',
      accounts: 'src/ledger',
    });
    expect(ownerOf('src/platform/schema.ts')).toBe('src/platform');
  });

  it("catches a stranger's write, whatever the allow-list says of reads", () => {
    const files = {
      ...schemas,
      'src/modules/kyc/service.ts': 'await tx.execute(sql`UPDATE users SET kyc_tier = ${tier} WHERE id = ${id}`);',
      'src/modules/shop/service.ts': 'await tx.execute(sql`INSERT INTO orders (id) VALUES (${id})`);',
    };
    const r = checkOwnership(files, { reads: { 'src/modules/kyc/service.ts': ['users'] }, writes: {} });
    expect(r.strangers).toEqual([{ file: 'src/modules/kyc/service.ts', table: 'users', owner: 'src/modules/identity', write: true }]);
    expect(r.failures).toEqual([
      expect.stringContaining('src/modules/kyc/service.ts writes users, owned by src/modules/identity: only its owner writes it'),
      expect.stringContaining('src/modules/kyc/service.ts no longer reads users as a stranger; remove the entry'),
    ]);
  });

  it("catches a stranger's write of a table whose writes are not yet all behind its owner unless it is a listed debt", () => {
    const files = { ...schemas, 'src/modules/console/c.ts': 'await db.execute(sql`DELETE FROM orders WHERE id = ${id}`);' };
    expect(checkOwnership(files, none).failures).toEqual([
      expect.stringContaining('console/c.ts writes orders, owned by src/modules/shop: a new use'),
    ]);
    expect(checkOwnership(files, { reads: {}, writes: { 'src/modules/console/c.ts': ['orders'] } }).failures).toEqual([]);
    expect(checkOwnership(files, { reads: { 'src/modules/console/c.ts': ['orders'] }, writes: {} }).failures).toHaveLength(2);
  });

  it('lets anyone read a view its owner publishes, and still catches a stranger reading the table under it', () => {
    const files = {
      ...schemas,
      'src/modules/shop/schema.ts': `export const orders = pgTable('orders', {});\nexport const facts = pgView('order_facts', {}).existing();`,
      'src/modules/wallet/service.ts': 'await db.execute(sql`SELECT o.id FROM order_facts o WHERE o.id = ${id}`);',
      'src/modules/console/c.ts': 'await db.execute(sql`SELECT id FROM orders WHERE id = ${id}`);',
    };
    const r = checkOwnership(files, none);
    expect(r.strangers.map((u) => `${u.file} ${u.table}`)).toEqual(['src/modules/console/c.ts orders']);
    expect(r.owners.get('order_facts')).toBe('src/modules/shop');
  });

  it("catches a stranger's read in a nested fragment and in sql.raw, and lets a listed one pass", () => {
    const files = {
      ...schemas,
      'src/modules/console/a.ts': 'const q = sql`SELECT ${sql`o.id`} FROM ${x}, orders o JOIN users u ON u.id = o.user_id`;',
      'src/modules/console/b.ts': "const COLS = 'SELECT sum(balance) FROM accounts'; rows(db, sql.raw(COLS));",
      // A constant interpolated in sql.raw's template is SQL text too.
      'src/modules/console/d.ts': 'const LAST = `(SELECT o.id FROM orders o)`; const COLS = sql.raw(`id, ${LAST} AS last`);',
    };
    const fails = checkOwnership(files, none).failures;
    expect(fails).toHaveLength(4);
    expect(fails.join('\n')).toMatch(
      /console\/a\.ts reads orders.*\n.*console\/a\.ts reads users.*\n.*console\/b\.ts reads accounts.*\n.*console\/d\.ts reads orders/,
    );
    const listed = {
      reads: {
        'src/modules/console/a.ts': ['orders', 'users'],
        'src/modules/console/b.ts': ['accounts'],
        'src/modules/console/d.ts': ['orders'],
      },
      writes: {},
    };
    expect(checkOwnership(files, listed).failures).toEqual([]);
  });

  it('names locks, upserts, CTEs, strings and comments as no use of a table', () => {
    const tables = new Set(['users', 'orders']);
    expect(tableUses('SELECT id FROM orders WHERE id = $1 FOR UPDATE', tables)).toEqual([{ table: 'orders', write: false }]);
    expect(tableUses('INSERT INTO orders (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET id = 1', tables)).toEqual([
      { table: 'orders', write: true },
    ]);
    expect(tableUses("WITH users AS (SELECT 1) SELECT 'FROM orders' FROM users -- JOIN orders", tables)).toEqual([]);
    expect(tableUses('DELETE FROM orders USING users u WHERE u.id = orders.user_id', tables)).toEqual([
      { table: 'orders', write: true },
      { table: 'users', write: false },
    ]);
  });

  it('passes on this repository: every stranger use is a listed debt, and every listed debt is still there', () => {
    const r = checkRepository(root);
    expect(r.failures).toEqual([]);
    expect(r.owners.get('users')).toBe('src/modules/identity');
    expect(r.owners.get('ledger_entries')).toBe('src/ledger');
    expect(r.owners.get('jobs')).toBe('src/jobs');
  });
});
