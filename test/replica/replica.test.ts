import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { one, type Db } from '../../src/db/client.js';
import { searchTransactionsInput } from '../../src/modules/console/transactions.js';
import { call, createHarness, expectLedgerOk, freePort, fundWallet, signIn, usingPostgres, type Harness } from '../helpers/harness.js';
import { buyer, PIN, walletBalance } from '../helpers/factories.js';

/**
 * Reads that tolerate lag against a real streaming replica (src/db/replica.ts). CI's PostgreSQL pass starts one
 * (.ci/start-replica) and sets TEST_READ_DATABASE_URL to its server; elsewhere this file is skipped. The replica's
 * replay is paused in some tests: a row written then exists on the primary only, so what a read answers tells which
 * server it came from. Nothing else in the suite reads from the replica, so the pause affects only this file.
 */
const readBase = process.env.TEST_READ_DATABASE_URL;
const run = Boolean(readBase && usingPostgres);

const urlOf = (base: string, database: string) => {
  const u = new URL(base);
  u.pathname = `/${database}`;
  return u.toString();
};

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(text)).rows;
  } finally {
    await c.end();
  }
}

async function until(what: string, check: () => Promise<boolean>) {
  for (let i = 0; i < 600; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const name = `t_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
let primaryUrl = '';
let replicaUrl = '';
let h: Harness;
const extra: Harness[] = [];
/** Statements the replica's pool ran, in order. */
const onReplica: string[] = [];

const inRecovery = async (db: Db) => (await one<{ r: boolean }>(db, sql`SELECT pg_is_in_recovery() AS r`))!.r;
const primaryLsn = async () => (await query<{ l: string }>(primaryUrl, 'SELECT pg_current_wal_insert_lsn()::text AS l'))[0].l;

/** Waits until the replica has replayed everything committed so far, then probes so the app knows it. */
async function caughtUp(...harnesses: Harness[]) {
  const since = performance.now();
  const lsn = await primaryLsn();
  await until('the replica to replay', async () => {
    const [r] = await query<{ ok: boolean }>(replicaUrl, `SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS ok`);
    return r.ok;
  });
  // Until a probe started after this call has found the replica holding the primary's position: writes made since
  // (the jobs a purchase leaves) can put a probe's sample ahead of the replay, and such a probe proves nothing newer.
  for (const x of harnesses.length ? harnesses : [h]) {
    await until('a probe to find the replica caught up', async () => {
      await x.app.services.replica.probe();
      const { lagMs } = x.app.services.replica.status();
      return lagMs !== null && performance.now() - lagMs > since + 1;
    });
  }
}

async function pauseReplay() {
  await query(replicaUrl, 'SELECT pg_wal_replay_pause()');
  await until(
    'replay to pause',
    async () => (await query<{ s: string }>(replicaUrl, 'SELECT pg_get_wal_replay_pause_state() AS s'))[0].s === 'paused',
  );
}
const resumeReplay = () => query(replicaUrl, 'SELECT pg_wal_replay_resume()');

describe.skipIf(!run)('reads that tolerate lag go to the streaming replica', () => {
  beforeAll(async () => {
    // The file's database, made on the primary from the run's migrated template; replay brings it to the replica.
    const template = inject('postgresTemplate');
    await query(process.env.TEST_DATABASE_URL!, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
    primaryUrl = urlOf(process.env.TEST_DATABASE_URL!, name);
    replicaUrl = urlOf(readBase!, name);
    await until('the database on the replica', () =>
      query(replicaUrl, 'SELECT 1').then(
        () => true,
        () => false,
      ),
    );
    h = await createHarness({
      databaseUrl: primaryUrl,
      env: { DATABASE_READ_URL: replicaUrl, DATABASE_READ_MAX_LAG_SECONDS: '600' },
    });
    await caughtUp();
    const pool = (h.app.services.replica.forUser(randomUUID()) as unknown as { $client: pg.Pool }).$client;
    expect(pool).toBeInstanceOf(pg.Pool);
    // Every statement on a connection to the replica's port: the pool's own queries and the reads sent with others
    // in one round trip (db/change-statements.ts runChange) on a connection the pool lends.
    const replicaPort = Number(new URL(replicaUrl).port);
    const clientQuery = pg.Client.prototype.query as (...a: unknown[]) => unknown;
    (pg.Client.prototype as unknown as { query: unknown }).query = function (this: pg.Client, q: unknown, ...rest: unknown[]) {
      if (this.port === replicaPort) onReplica.push(typeof q === 'string' ? q : String((q as { text?: string }).text));
      return clientQuery.call(this, q, ...rest);
    };
  });

  afterAll(async () => {
    await resumeReplay().catch(() => undefined);
    for (const x of extra) await x.close();
    await h?.close();
    await query(process.env.TEST_DATABASE_URL!, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('the replica answers lag-tolerant reads; the primary keeps everything else', async () => {
    const { replica, db } = h.app.services;
    expect(replica.status()).toMatchObject({ target: 'replica' });
    expect(await inRecovery(replica.lagTolerant)).toBe(true);
    expect(await inRecovery(replica.forUser(randomUUID()))).toBe(true);
    expect(await inRecovery(db)).toBe(false);
    const metrics = (await h.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/^db_read_replica_in_use 1$/m);
    expect(metrics).toMatch(/^db_read_replica_lag_seconds \d/m);
  });

  it("a statement is read from the replica, yet the customer's own purchase shows at once and was checked on the primary", async () => {
    const u = await buyer(h, 1000);
    const other = await buyer(h, 5000);
    await caughtUp();
    await pauseReplay();
    try {
      // Written while the replica stands still: only the primary has these.
      await fundWallet(h, other.id, 700);
      await fundWallet(h, u.id, 2000);
      const before = onReplica.length;
      const otherState = (await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: other.token })).json();
      expect(otherState.balance).toBe(5000); // the replica's copy: the 700 is not there yet
      expect(await walletBalance(h, other.id)).toBe(5700);
      expect(onReplica.length).toBeGreaterThan(before);

      // The customer's purchase needs the 2000 only the primary has: its balance check reads the primary.
      const firstReplicaStatement = onReplica.length;
      const buy = await call(
        h,
        'POST',
        '/api/v1/buyAirtime',
        { network: 'mtn', phone: '08031234567', amount: 2500, pin: PIN },
        { token: u.token },
      );
      expect(buy.statusCode).toBe(200);
      const id = buy.json().transaction.id;
      // Nothing of the purchase ran on the replica: no transaction, no lock, no write.
      const during = onReplica.slice(firstReplicaStatement);
      expect(during.filter((t) => /\b(BEGIN|FOR UPDATE|INSERT|UPDATE|DELETE)\b/i.test(t))).toEqual([]);

      // Right after their own write, the customer's lists come from the primary: the purchase is there.
      const list = (await call(h, 'GET', '/api/v1/listMyVtuTransactions', { limit: 5 }, { token: u.token })).json();
      expect(list.items.map((t: { id: string }) => t.id)).toContain(id);
      const state = (await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: u.token })).json();
      expect(state.balance).toBe(500);
      expect(await inRecovery(h.app.services.replica.forUser(u.id))).toBe(false);
      // Another customer's statement still reads the replica.
      expect(await inRecovery(h.app.services.replica.forUser(other.id))).toBe(true);

      // The operator's search reads the replica too, and is behind while replay is paused.
      const search = () => h.app.services.operatorConsole.transactions.search(searchTransactionsInput.parse({ userId: u.id }));
      expect((await search()).items).toEqual([]);
      await resumeReplay();
      await caughtUp();
      expect((await search()).items.map((t) => t.id)).toEqual([id]);
    } finally {
      await resumeReplay();
    }
    // Once the replica holds the write, the customer reads it again, and sees the same.
    expect(await inRecovery(h.app.services.replica.forUser(u.id))).toBe(true);
    const list = (await call(h, 'GET', '/api/v1/listMyVtuTransactions', { limit: 5 }, { token: u.token })).json();
    expect(list.items).toHaveLength(1);
    const otherState = (await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: other.token })).json();
    expect(otherState.balance).toBe(5700);
    await expectLedgerOk(h);
  });

  it('operator lists, the dashboard and catalogues read the replica', async () => {
    await caughtUp();
    await pauseReplay();
    try {
      const posted = await h.app.inject({
        method: 'POST',
        url: '/api/public/report-issue',
        payload: { message: `replica check ${randomUUID()}` },
        remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      });
      expect(posted.statusCode).toBe(200);
      const issueIds = async () => (await h.app.services.reports.adminListIssues({ limit: 50, offset: 0 })).items.map((i) => i.id);
      expect(await issueIds()).not.toContain(posted.json().id);

      const before = onReplica.length;
      await h.app.services.operatorConsole.dashboard.volume({});
      await h.app.services.operatorConsole.dashboard.queues();
      expect(onReplica.slice(before).some((t) => /vtu_transactions/.test(t))).toBe(true);

      const catalogueReads = onReplica.length;
      const u = await buyer(h, 100);
      const plans = await call(h, 'GET', '/api/v1/listDataPlans', { network: 'mtn' }, { token: u.token });
      expect(plans.statusCode).toBe(200);
      expect(onReplica.slice(catalogueReads).some((t) => /vtu_catalogue_cache/.test(t))).toBe(true);

      // A customer's report and an operator's resolution of it: each sees their own write at once.
      const customer = await buyer(h, 50); // funded on the primary only, while replay is paused
      const state = (await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: customer.token })).json();
      expect(state.log).toEqual([]); // the replica's copy: the funding is not there yet
      const reference = (await one<{ reference: string }>(
        h.app.services.db,
        sql`SELECT t.reference FROM ledger_transactions t
          JOIN ledger_entries e ON e.transaction_id = t.id JOIN accounts a ON a.id = e.account_id WHERE a.user_id = ${customer.id}`,
      ))!.reference;
      const filed = await call(
        h,
        'POST',
        '/_serverFn/createTransactionReportBearerReports',
        { reference, category: 'other', description: 'checking the replica' },
        { token: customer.token },
      );
      expect(filed.statusCode).toBe(200);
      const mine = (await call(h, 'GET', '/_serverFn/listMyReportsBearerReports', {}, { token: customer.token })).json();
      expect(mine.items.map((r: { id: string }) => r.id)).toEqual([filed.json().report.id]);
      const admin = await signIn(h, 'admin@example.com');
      const resolved = await call(
        h,
        'POST',
        '/_serverFn/adminResolveTransactionReportBearerAdmin',
        { id: filed.json().report.id, note: 'looked at it' },
        { token: admin.token },
      );
      expect(resolved.statusCode).toBe(200);
      const listed = (
        await call(h, 'GET', '/_serverFn/adminListTransactionReportsBearerAdmin', { userId: customer.id }, { token: admin.token })
      ).json();
      expect(listed.items).toMatchObject([{ id: filed.json().report.id, status: 'resolved' }]);

      await resumeReplay();
      await caughtUp();
      expect(await issueIds()).toContain(posted.json().id);
    } finally {
      await resumeReplay();
    }
  });

  it('a replica that cannot be reached sends every read to the primary', async () => {
    const down = await createHarness({
      databaseUrl: primaryUrl,
      env: { DATABASE_READ_URL: `postgres://postgres@127.0.0.1:${await freePort()}/${name}` },
    });
    extra.push(down);
    await down.app.services.replica.probe();
    expect(down.app.services.replica.status()).toMatchObject({ target: 'primary' });
    expect(down.app.services.replica.status().reason).toMatch(/unreachable/);
    expect((await down.app.inject({ method: 'GET', url: '/metrics' })).body).toMatch(/^db_read_replica_in_use 0$/m);
    expect(await inRecovery(down.app.services.replica.lagTolerant)).toBe(false);
    const u = await buyer(down, 300);
    const state = await call(down, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: u.token });
    expect(state.statusCode).toBe(200);
    expect(state.json().balance).toBe(300);
  });

  it('a replica further behind than DATABASE_READ_MAX_LAG_SECONDS sends reads to the primary until it catches up', async () => {
    const tight = await createHarness({
      databaseUrl: primaryUrl,
      env: { DATABASE_READ_URL: replicaUrl, DATABASE_READ_MAX_LAG_SECONDS: '1' },
    });
    extra.push(tight);
    const { replica } = tight.app.services;
    await caughtUp(tight);
    await until('the replica to be used', async () => (await replica.probe(), replica.status().target === 'replica'));
    await pauseReplay();
    try {
      const u = await buyer(tight, 100); // writes the primary has and the paused replica has not
      await until('the lag bound to be passed', async () => (await replica.probe(), replica.status().target === 'primary'));
      expect(replica.status().reason).toMatch(/behind by more than 1000 ms/);
      expect(await inRecovery(replica.lagTolerant)).toBe(false);
      const state = (await call(tight, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: u.token })).json();
      expect(state.balance).toBe(100);
    } finally {
      await resumeReplay();
    }
    await until('the replica to be used again', async () => (await replica.probe(), replica.status().target === 'replica'));
    expect(await inRecovery(replica.lagTolerant)).toBe(true);
  });
});
