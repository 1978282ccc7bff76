import { describe, expect, it } from 'vitest';
import { migrationDirs, migrationFiles } from '../../src/db/migrate.js';

// A service kind keeps its own tables' migrations in its folder (kinds/<kind>/migrations): they are applied with the
// service's, in one file-name order.
describe('migration files', () => {
  it('takes the kinds’ own migrations with src/db/migrations, in file-name order', () => {
    expect(migrationDirs().some((d) => /kinds[/\\]flights[/\\]migrations$/.test(d))).toBe(true);
    const names = migrationFiles().map((f) => f.name);
    expect(names).toContain('0410_flights.sql');
    expect(names).toContain('0430_airtime_cash.sql');
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(names.length);
    expect(names.indexOf('0401_vtu_kind_inputs.sql')).toBeLessThan(names.indexOf('0410_flights.sql'));
  });
});
