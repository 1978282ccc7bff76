import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { cpuCost, cpuSnapshot } from './cpu.js';
import { DURATION, type Result } from './lib.js';

/**
 * The transfer baseline: the fastest honest transfer PostgreSQL can do, one statement over `pg` that
 * inserts the idempotency key, moves both balances and writes both entries, between random pairs of WALLETS wallets.
 * "Honest": a reused key moves nothing (the claim is the statement's first step), a debit below zero fails the
 * whole statement (CHECK), the two wallets are locked in id order (no deadlock between opposite transfers), and each
 * entry carries the balance after it, as the service's ledger does. What it leaves out is the service's product
 * around the money: the ledger transaction row, the answer stored under the key, notifications and their jobs.
 */
export const WALLETS = 10_000;

/** Tables of their own (sql1_*), beside whatever else the database holds. */
export async function setupSqlTransfer(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  c.on('error', () => undefined);
  await c.query(`CREATE TABLE IF NOT EXISTS sql1_wallets (id int PRIMARY KEY, balance bigint NOT NULL CHECK (balance >= 0));
    CREATE TABLE IF NOT EXISTS sql1_idempotency (key uuid PRIMARY KEY, created_at timestamptz NOT NULL);
    CREATE TABLE IF NOT EXISTS sql1_entries (id bigserial PRIMARY KEY, idempotency_key uuid NOT NULL, wallet_id int NOT NULL,
      amount bigint NOT NULL, balance_after bigint NOT NULL, created_at timestamptz NOT NULL);
    CREATE TABLE IF NOT EXISTS sql1_notifications (id bigserial PRIMARY KEY, wallet_id int NOT NULL, body text NOT NULL,
      created_at timestamptz NOT NULL);
    TRUNCATE sql1_wallets, sql1_idempotency, sql1_entries, sql1_notifications;
    INSERT INTO sql1_wallets SELECT g, 1000000000 FROM generate_series(1, ${WALLETS}) g;`);
  await c.query('VACUUM ANALYZE sql1_wallets');
  await c.end();
}

/** Locks both wallets (in id order, where `guard` holds), moves both balances and writes both entries. */
const move = (guard: string) => `locked AS (
  SELECT id FROM sql1_wallets WHERE id IN ($2, $3)${guard} ORDER BY id FOR UPDATE
), moved AS (
  UPDATE sql1_wallets w SET balance = w.balance + CASE WHEN w.id = $2 THEN -$4::bigint ELSE $4::bigint END
  FROM locked WHERE w.id = locked.id
  RETURNING w.id, w.balance, CASE WHEN w.id = $2 THEN -$4::bigint ELSE $4::bigint END AS amount
)
INSERT INTO sql1_entries (idempotency_key, wallet_id, amount, balance_after, created_at)
SELECT $1::uuid, id, amount, balance, now() FROM moved RETURNING id`;

/** $1 idempotency key, $2 from wallet, $3 to wallet, $4 amount. */
export const TRANSFER_SQL = `WITH claim AS (
  INSERT INTO sql1_idempotency (key, created_at) VALUES ($1, now()) ON CONFLICT DO NOTHING RETURNING key
), ${move(' AND EXISTS (SELECT FROM claim)')}`;

/** The transfer alone (no claim), for the multi-statement transaction that claims the key on its own. */
export const MOVE_SQL = `WITH ${move('')}`;
export const CLAIM_SQL = 'INSERT INTO sql1_idempotency (key, created_at) VALUES ($1, now())';
export const NOTIFY_SQL = 'INSERT INTO sql1_notifications (wallet_id, body, created_at) VALUES ($1, $2, now())';

/** A random pair of distinct wallets and a fresh key: [key, from, to, amount]. */
export function transferParams(): [string, number, number, number] {
  const a = 1 + Math.floor(Math.random() * WALLETS);
  let b = 1 + Math.floor(Math.random() * WALLETS);
  if (b === a) b = (a % WALLETS) + 1;
  return [randomUUID(), a, b, 100];
}

/** Serialisation failures and deadlocks are retried by the loop (counted apart); anything else is an error. */
const retryable = (err: unknown) => ['40001', '40P01'].includes((err as { code?: string })?.code ?? '');

/**
 * `workers` closed loops calling `worker` for BENCH_SECONDS; latencies from each call's start to its end. The CPU
 * of this process is the "server" side (cpuInBench). A failure `retry` accepts (by default serialisation failures
 * and deadlocks) is run again and counted apart; anything else is an error.
 */
export async function closedLoop(
  worker: () => Promise<void>,
  workers: number,
  retry: (err: unknown) => boolean = retryable,
): Promise<Result & { retries: number }> {
  const latencies: number[] = [];
  let errors = 0;
  let retries = 0;
  let firstError: unknown = null;
  const end = Date.now() + DURATION * 1000;
  const before = cpuSnapshot();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (Date.now() < end) {
        const t = performance.now();
        for (;;) {
          try {
            await worker();
            latencies.push(performance.now() - t);
            break;
          } catch (err) {
            if (retry(err)) {
              retries++;
              continue;
            }
            errors++;
            firstError ??= err;
            break;
          }
        }
      }
    }),
  );
  if (firstError) console.error(`first error: ${(firstError as Error).message}`);
  const cpu = cpuCost(before, cpuSnapshot(), latencies.length);
  latencies.sort((a, b) => a - b);
  const q = (p: number) => Math.round(latencies[Math.floor((latencies.length - 1) * p)] * 100) / 100;
  return {
    name: '',
    rps: Math.round(latencies.length / DURATION),
    p50: q(0.5),
    p99: q(0.99),
    errors,
    retries,
    connections: workers,
    total: latencies.length,
    cpu,
    cpuInBench: true,
  };
}

/**
 * The baseline: TRANSFER_SQL as a named prepared statement on a plain pg pool of `poolSize` (the service's 20),
 * `workers` transfers in flight. Checks afterwards that money was neither made nor lost and every transfer wrote
 * its two entries.
 */
export async function oneStatementTransfers(url: string, workers: number, poolSize = 20): Promise<Result> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // A connection lost while idle (another session's pg_terminate_backend on this shared server) is reported by the
  // next query as that transfer's error, not as an unhandled event.
  pool.on('error', () => undefined);
  const r = await closedLoop(async () => {
    const res = await pool.query({ name: 'sql1_transfer', text: TRANSFER_SQL, values: transferParams() });
    if (res.rowCount !== 2) throw new Error(`transfer wrote ${res.rowCount} entries`);
  }, workers);
  await checkSqlTransfers(pool);
  await pool.end();
  return { ...r, name: `one-statement SQL transfer (pg, prepared; ${WALLETS.toLocaleString('en')} wallets)` };
}

/** Money is conserved and entries pair up with keys: the baseline's own ledger check. */
export async function checkSqlTransfers(q: { query: pg.Pool['query'] } | pg.Pool): Promise<void> {
  const r = await (q as pg.Pool).query(`SELECT
      (SELECT sum(balance) FROM sql1_wallets)::text AS total,
      (SELECT count(*) FROM sql1_wallets WHERE balance < 0)::int AS negative,
      (SELECT count(*) FROM (SELECT idempotency_key FROM sql1_entries GROUP BY 1 HAVING sum(amount) <> 0 OR count(*) <> 2) x)::int AS unbalanced`);
  const row = r.rows[0] as { total: string; negative: number; unbalanced: number };
  if (BigInt(row.total) !== BigInt(WALLETS) * 1_000_000_000n || row.negative || row.unbalanced)
    throw new Error(`SQL transfer baseline broke its ledger: ${JSON.stringify(row)}`);
}
