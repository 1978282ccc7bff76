import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { createLedger } from '../src/ledger/ledger.js';
import { systemClock } from '../src/kernel/clock.js';
import { verifyLedger } from '../src/ledger/verify.js';
import type { Result } from './lib.js';
import { closedLoop } from './sql-transfer.js';

const ACCOUNTS = 200;
const WORKERS = 16;

/** The loop of these baselines: every failure counts as an error (none is run again). */
const loop = (worker: () => Promise<void>, workers = WORKERS) => closedLoop(worker, workers, () => false);

/**
 * Raw SQL: the same statements a ledger transfer runs, hand-written over a pg pool. `workers` concurrent loops
 * over a pool of `poolSize` connections (the service's pool is 20), between `accounts` accounts.
 */
export async function rawSqlTransfers(url: string, opts: { workers?: number; accounts?: number; poolSize?: number } = {}): Promise<Result> {
  const workers = opts.workers ?? WORKERS;
  const accounts = opts.accounts ?? ACCOUNTS;
  const pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? workers });
  await pool.query(`CREATE TABLE IF NOT EXISTS raw_accounts (id int PRIMARY KEY, balance bigint NOT NULL CHECK (balance >= 0));
                    CREATE TABLE IF NOT EXISTS raw_tx (id bigserial PRIMARY KEY, reference text UNIQUE NOT NULL, created_at timestamptz NOT NULL);
                    CREATE TABLE IF NOT EXISTS raw_entries (id bigserial PRIMARY KEY, tx_id bigint NOT NULL, account_id int NOT NULL, amount bigint NOT NULL, balance_after bigint, created_at timestamptz NOT NULL);
                    TRUNCATE raw_accounts, raw_tx, raw_entries;`);
  await pool.query(`INSERT INTO raw_accounts SELECT g, 100000000 FROM generate_series(1, ${accounts}) g`);
  const r = await loop(async () => {
    const a = 1 + Math.floor(Math.random() * accounts);
    let b = 1 + Math.floor(Math.random() * accounts);
    if (b === a) b = (a % accounts) + 1;
    const [lo, hi] = a < b ? [a, b] : [b, a];
    const c = await pool.connect();
    try {
      await c.query('BEGIN');
      const tx = await c.query('INSERT INTO raw_tx (reference, created_at) VALUES ($1, now()) RETURNING id', [randomUUID()]);
      const deltas = new Map([
        [a, -100],
        [b, 100],
      ]);
      for (const id of [lo, hi]) {
        const u = await c.query('UPDATE raw_accounts SET balance = balance + $2 WHERE id = $1 AND balance + $2 >= 0 RETURNING balance', [
          id,
          deltas.get(id),
        ]);
        await c.query('INSERT INTO raw_entries (tx_id, account_id, amount, balance_after, created_at) VALUES ($1, $2, $3, $4, now())', [
          tx.rows[0].id,
          id,
          deltas.get(id),
          u.rows[0].balance,
        ]);
      }
      await c.query('COMMIT');
    } catch (err) {
      await c.query('ROLLBACK');
      throw err;
    } finally {
      c.release();
    }
  }, workers);
  await pool.end();
  return { ...r, name: `raw SQL wallet transfer (pg loop, ${accounts} accounts)` };
}

/** The service's ledger.post between user wallets (same database server, same concurrency as the raw loop). */
export async function serviceTransfers(
  url: string,
  opts: { workers?: number; accounts?: number; poolSize?: number } = {},
): Promise<Result> {
  const workers = opts.workers ?? WORKERS;
  const accounts = opts.accounts ?? ACCOUNTS;
  const database = await openDatabase({ url, dataDir: '/tmp', poolSize: opts.poolSize ?? workers });
  await migrate(database);
  const ledger = createLedger({ clock: systemClock });
  const users = Array.from({ length: accounts }, () => randomUUID());
  for (const u of users) {
    await database.db.transaction((tx) =>
      ledger.post(tx, {
        reference: `seed_${u}`,
        type: 'adjustment',
        description: 'seed',
        entries: [
          { account: { user: u, kind: 'wallet' }, amount: 100_000_000n },
          { account: { system: 'adjustments' }, amount: -100_000_000n },
        ],
      }),
    );
  }
  const r = await loop(async () => {
    const a = users[Math.floor(Math.random() * accounts)];
    let b = users[Math.floor(Math.random() * accounts)];
    if (a === b) b = users[(users.indexOf(a) + 1) % accounts];
    await database.db.transaction((tx) =>
      ledger.post(tx, {
        reference: `tr_${randomUUID()}`,
        type: 'transfer_out',
        description: 'bench',
        entries: [
          { account: { user: a, kind: 'wallet' }, amount: -100n },
          { account: { user: b, kind: 'wallet' }, amount: 100n },
        ],
      }),
    );
  }, workers);
  const report = await verifyLedger(database.db);
  if (report.breaches.length) throw new Error(`ledger breaches after benchmark: ${JSON.stringify(report.breaches)}`);
  await database.close();
  return { ...r, name: `service ledger transfer (ledger.post, ${accounts} accounts)` };
}

/**
 * The ledger's postAlone between user wallets (a transfer's posting without the HTTP request around it): `workers`
 * loops over a pool of `poolSize`, with the ledger's batching as the service configures it (LEDGER_BATCH_MAX,
 * LEDGER_BATCH_WAIT_MS; max 1 posts each on its own). Commits and WAL of the run from `wal` (bench/wal.ts).
 */
export async function aloneTransfers(
  url: string,
  opts: { workers: number; accounts: number; poolSize: number; batch: { max: number; waitMs: number } },
  wal: (url: string) => Promise<() => Promise<unknown>>,
): Promise<{ result: Result; wal: unknown }> {
  const database = await openDatabase({ url, dataDir: '/tmp', poolSize: opts.poolSize });
  await migrate(database);
  const ledger = createLedger({ clock: systemClock, batch: opts.batch });
  const users = Array.from({ length: opts.accounts }, () => randomUUID());
  for (const u of users) {
    await database.db.transaction((tx) =>
      ledger.post(tx, {
        reference: `seed_${u}`,
        type: 'adjustment',
        description: 'seed',
        entries: [
          { account: { user: u, kind: 'wallet' }, amount: 100_000_000n },
          { account: { system: 'adjustments' }, amount: -100_000_000n },
        ],
      }),
    );
  }
  const stop = await wal(url);
  const r = await loop(async () => {
    const a = Math.floor(Math.random() * opts.accounts);
    let b = Math.floor(Math.random() * opts.accounts);
    if (a === b) b = (a + 1) % opts.accounts;
    await ledger.postAlone(database.db, {
      reference: `ta_${randomUUID()}`,
      type: 'transfer_out',
      description: 'bench',
      entries: [
        { account: { user: users[a], kind: 'wallet' }, amount: -100n },
        { account: { user: users[b], kind: 'wallet' }, amount: 100n },
      ],
    });
  }, opts.workers);
  const cost = await stop();
  const report = await verifyLedger(database.db);
  if (report.breaches.length) throw new Error(`ledger breaches after benchmark: ${JSON.stringify(report.breaches)}`);
  await database.close();
  const batch = opts.batch.max > 1 ? `batches of <= ${opts.batch.max}, ${opts.batch.waitMs} ms` : 'one by one';
  return { result: { ...r, name: `ledger.postAlone (${opts.accounts} accounts, ${batch})` }, wal: cost };
}
