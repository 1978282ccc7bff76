import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Database, Db } from '../../src/db/client.js';
import { lsnValue, openReadReplica } from '../../src/db/replica.js';
import { PRODUCTION } from '../helpers/production-env.js';

describe('read replica routing without a replica', () => {
  it('orders WAL positions across the 32-bit boundary', () => {
    expect(lsnValue('0/16B3748')).toBe(0x16b3748n);
    expect(lsnValue('1/0') > lsnValue('0/FFFFFFFF')).toBe(true);
    expect(lsnValue('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
  });

  it('sends every read to the primary when DATABASE_READ_URL is unset or the database is embedded', async () => {
    const db = {} as Db;
    for (const [kind, url] of [
      ['pg', undefined],
      ['pglite', 'postgres://127.0.0.1:5433/x'],
    ] as const) {
      const replica = openReadReplica({ primary: { kind, db } as Database, url, poolSize: 1, maxLagMs: 5000 });
      expect(replica.configured).toBe(false);
      expect(replica.lagTolerant).toBe(db);
      replica.noteWrite('u1');
      expect(replica.forUser('u1')).toBe(db);
      expect(replica.status()).toMatchObject({ target: 'primary' });
      await replica.close();
    }
  });

  it('reads DATABASE_READ_URL and its lag bound; production refuses a replica that is not PostgreSQL', () => {
    const c = loadConfig({ ...PRODUCTION, DATABASE_READ_URL: 'postgres://127.0.0.1:5433/vtu', DATABASE_READ_MAX_LAG_SECONDS: '2.5' });
    expect(c).toMatchObject({ databaseReadUrl: 'postgres://127.0.0.1:5433/vtu', databaseReadMaxLagMs: 2500 });
    expect(loadConfig(PRODUCTION)).toMatchObject({ databaseReadUrl: undefined, databaseReadMaxLagMs: 5000 });
    expect(() => loadConfig({ ...PRODUCTION, DATABASE_READ_URL: 'memory://x' })).toThrow(/DATABASE_READ_URL must be a PostgreSQL URL/);
    expect(() => loadConfig({ ...PRODUCTION, DATABASE_READ_MAX_LAG_SECONDS: '0' })).toThrow(/DATABASE_READ_MAX_LAG_SECONDS/);
  });
});
