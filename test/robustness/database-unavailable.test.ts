import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, signIn, usingPostgres, type Harness, type TestUser } from '../helpers/harness.js';

/**
 * When PostgreSQL refuses a new connection (here a role's connection limit, SQLSTATE 53300, as a full
 * max_connections would), a request is answered 503 SERVICE_UNAVAILABLE with Retry-After, not a 500 "our bug",
 * and the service recovers by itself once connections are free again. PostgreSQL only: PGlite has no connections.
 */
const LIMIT = 40;
let h: Harness;
let u: TestUser;
let admin: pg.Client;
const role = `t_role_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
const database = `t_${randomUUID().replace(/-/g, '').slice(0, 20)}`;

describe.skipIf(!usingPostgres)(
  `a database that refuses connections (${usingPostgres ? 'PostgreSQL' : 'skipped: PGlite has no connections'})`,
  () => {
    beforeAll(async () => {
      admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      // A role that is not a superuser (superusers are exempt from connection limits) and owns a fresh database.
      await admin.query(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT ${LIMIT}`);
      await admin.query(`CREATE DATABASE ${database} OWNER ${role}`);
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.username = role;
      url.pathname = `/${database}`;
      h = await createHarness({ databaseUrl: url.toString() });
      u = await signIn(h);
    });
    afterAll(async () => {
      await h?.close();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.end();
    });

    it('answers 503 with Retry-After when no new connection can be opened, never 500, and 200 again once one can', async () => {
      expect((await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: u.token })).statusCode).toBe(200);
      // New connections of the role are refused from now on (its open ones stay): more requests at once than the
      // pool has connections open make it open new ones, which PostgreSQL refuses with SQLSTATE 53300.
      await admin.query(`ALTER ROLE ${role} CONNECTION LIMIT 0`);
      const open = Number((await admin.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE usename = $1`, [role])).rows[0].n);
      expect(open).toBeLessThan(20);
      const answers = await Promise.all(
        Array.from({ length: 40 }, () => call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: u.token })),
      );
      const refused = answers.filter((r) => r.statusCode === 503);
      expect(answers.filter((r) => r.statusCode !== 200 && r.statusCode !== 503).map((r) => r.statusCode)).toEqual([]);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused[0].json().error.code).toBe('SERVICE_UNAVAILABLE');
      expect(refused[0].headers['retry-after']).toBe('5');
      expect(h.logs.join('\n')).not.toContain('unhandled error');

      await admin.query(`ALTER ROLE ${role} CONNECTION LIMIT ${LIMIT}`);
      const again = await Promise.all(
        Array.from({ length: 40 }, () => call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: u.token })),
      );
      expect(again.map((r) => r.statusCode)).toEqual(Array(40).fill(200));
    });
  },
);
