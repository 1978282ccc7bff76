import os from 'node:os';
import pg from 'pg';
import { openDatabase, rawWithParams, rows } from '../src/db/client.js';
import {
  CLAIM_SQL,
  MOVE_SQL,
  NOTIFY_SQL as NOTIFY,
  TRANSFER_SQL,
  WALLETS,
  checkSqlTransfers,
  closedLoop,
  setupSqlTransfer,
  transferParams,
} from './sql-transfer.js';
import { DURATION, freshDatabase, table, type Result } from './lib.js';

/**
 * `npm run bench:drivers`: the service's driver (node-postgres with src/db/client.ts's PreparingClient, statements
 * sent through `rows()` as the service sends them) against postgres.js (the `postgres` package: pipelining,
 * automatic prepared statements), on the same PostgreSQL, the same pool size (the service's 20) and the same tables
 * (bench/sql-transfer.ts, 10,000 wallets):
 *   transfer     - the one-statement transfer (idempotency key, both balances, both entries)
 *   transaction  - BEGIN; claim the key; the transfer; a notification to each side; COMMIT. The service's way
 *                  (drizzle's db.transaction, statements through `rows()`) waits for each statement before sending
 *                  the next; postgres.js either does the same (sequential) or sends all four in one write
 *                  (sql.begin returning an array: pipelined).
 * Two more rows tell the driver from what the service wraps around it: node-postgres alone (a pool, statements named
 * by hand, no drizzle and no `rows()`), and node-postgres 8.23's own pipeline mode (`pipeline: true`: a checked-out
 * client writes BEGIN, the four statements and COMMIT without waiting for each answer).
 * At BENCH_DRIVER_CONNECTIONS in flight (16,64), BENCH_DRIVER_ROUNDS rounds (1) alternating the drivers, BENCH_SECONDS
 * a run. Prints each run's rate, latency and CPU per operation (this process, which is the driver, + PostgreSQL).
 */
const CONNECTIONS = (process.env.BENCH_DRIVER_CONNECTIONS ?? '16,64').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_DRIVER_ROUNDS ?? 1);
const POOL = 20;

type Run = () => Promise<void>;

/** What this bench uses of postgres.js (the `postgres` package, installed only for this comparison). */
interface PostgresJsSql {
  unsafe(text: string, params: unknown[], opts: { prepare: boolean }): Promise<unknown[]>;
}
type PostgresJs = (
  url: string,
  opts: { max: number; onnotice: () => void },
) => PostgresJsSql & {
  begin<T>(fn: (sql: PostgresJsSql) => T | Promise<T>): Promise<unknown>;
  end(): Promise<void>;
};

export async function driverBench(): Promise<{ rows: Result[]; verdict: string[] }> {
  const db = await freshDatabase('benchdrv');
  const out: Result[] = [];
  const verdict: string[] = [];
  try {
    await setupSqlTransfer(db.url);
    const database = await openDatabase({ url: db.url, dataDir: '/tmp', poolSize: POOL });
    // postgres.js is not one of the project's packages (the service keeps node-postgres, docs/scaling.md), so a
    // production install does not carry it: `npm install --no-save postgres@3` adds it to this comparison.
    const postgres = await import('postgres' as string).then((m: { default: PostgresJs }) => m.default).catch(() => null);
    if (!postgres) console.log('postgres.js is not installed (npm install --no-save postgres@3 to compare it): its rows are left out');
    const pjs = postgres?.(db.url, { max: POOL, onnotice: () => undefined }) ?? null;
    const plain = new pg.Pool({ connectionString: db.url, max: POOL });
    const piped = new pg.Pool({ connectionString: db.url, max: POOL, pipeline: true } as pg.PoolConfig);
    for (const p of [plain, piped]) p.on('error', () => undefined);
    const named = (name: string, text: string, values: unknown[]) => ({ name, text, values });
    const variants: Record<string, Record<string, Run>> = {
      transfer: {
        'pg + PreparingClient': async () => {
          const r = await rows(database.db, rawWithParams(TRANSFER_SQL, transferParams()));
          if (r.length !== 2) throw new Error('transfer wrote no entries');
        },
        'pg alone, named statement': async () => {
          const r = await plain.query(named('t', TRANSFER_SQL, transferParams()));
          if (r.rowCount !== 2) throw new Error('transfer wrote no entries');
        },
        ...(pjs && {
          'postgres.js': async () => {
            const r = await pjs.unsafe(TRANSFER_SQL, transferParams(), { prepare: true });
            if (r.length !== 2) throw new Error('transfer wrote no entries');
          },
        }),
      },
      transaction: {
        'pg + PreparingClient, sequential': async () => {
          const p = transferParams();
          await database.db.transaction(async (tx) => {
            await rows(tx, rawWithParams(CLAIM_SQL, [p[0]]));
            await rows(tx, rawWithParams(MOVE_SQL, p));
            await rows(tx, rawWithParams(NOTIFY, [p[1], `sent ${p[3]}`]));
            await rows(tx, rawWithParams(NOTIFY, [p[2], `received ${p[3]}`]));
          });
        },
        'pg alone, named statements, sequential': async () => {
          const p = transferParams();
          const c = await plain.connect();
          try {
            await c.query('BEGIN');
            await c.query(named('c', CLAIM_SQL, [p[0]]));
            await c.query(named('m', MOVE_SQL, p));
            await c.query(named('n', NOTIFY, [p[1], `sent ${p[3]}`]));
            await c.query(named('n', NOTIFY, [p[2], `received ${p[3]}`]));
            await c.query('COMMIT');
          } catch (err) {
            await c.query('ROLLBACK').catch(() => undefined);
            throw err;
          } finally {
            c.release();
          }
        },
        'pg alone, pipeline mode, pipelined': async () => {
          const p = transferParams();
          const c = await piped.connect();
          try {
            // All six written at once; a failed statement aborts the transaction and COMMIT then rolls it back.
            const results = await Promise.allSettled([
              c.query('BEGIN'),
              c.query(named('c', CLAIM_SQL, [p[0]])),
              c.query(named('m', MOVE_SQL, p)),
              c.query(named('n', NOTIFY, [p[1], `sent ${p[3]}`])),
              c.query(named('n', NOTIFY, [p[2], `received ${p[3]}`])),
              c.query('COMMIT'),
            ]);
            const failed = results.find((r) => r.status === 'rejected');
            if (failed) throw (failed as PromiseRejectedResult).reason;
            if ((results[5] as PromiseFulfilledResult<pg.QueryResult>).value.command !== 'COMMIT') throw new Error('rolled back');
          } finally {
            c.release();
          }
        },
        ...(pjs && {
          'postgres.js, sequential': async () => {
            const p = transferParams();
            await pjs.begin(async (sql) => {
              await sql.unsafe(CLAIM_SQL, [p[0]], { prepare: true });
              await sql.unsafe(MOVE_SQL, p, { prepare: true });
              await sql.unsafe(NOTIFY, [p[1], `sent ${p[3]}`], { prepare: true });
              await sql.unsafe(NOTIFY, [p[2], `received ${p[3]}`], { prepare: true });
            });
          },
          'postgres.js, pipelined': async () => {
            const p = transferParams();
            await pjs.begin((sql) => [
              sql.unsafe(CLAIM_SQL, [p[0]], { prepare: true }),
              sql.unsafe(MOVE_SQL, p, { prepare: true }),
              sql.unsafe(NOTIFY, [p[1], `sent ${p[3]}`], { prepare: true }),
              sql.unsafe(NOTIFY, [p[2], `received ${p[3]}`], { prepare: true }),
            ]);
          },
        }),
      },
    };
    // Warm-up: every connection of both pools has prepared every statement before the first measured run.
    for (const runs of Object.values(variants))
      for (const run of Object.values(runs)) await Promise.all(Array.from({ length: POOL * 3 }, () => run()));

    const rates = new Map<string, number[]>();
    for (let round = 0; round < ROUNDS; round++)
      for (const c of CONNECTIONS)
        for (const [workload, runs] of Object.entries(variants))
          for (const [driver, run] of round % 2 ? Object.entries(runs).reverse() : Object.entries(runs)) {
            const r = await closedLoop(run, c);
            out.push({ ...r, name: `${workload}: ${driver}${r.retries ? ` (${r.retries} deadlocks retried)` : ''}` });
            const key = `${workload}|${c}|${driver}`;
            rates.set(key, [...(rates.get(key) ?? []), r.rps]);
          }
    const check = new pg.Pool({ connectionString: db.url, max: 1 });
    check.on('error', () => undefined);
    await checkSqlTransfers(check);
    await check.end();
    await pjs?.end();
    await plain.end();
    await piped.end();
    await database.close();

    const range = (xs: number[]) => (Math.min(...xs) === Math.max(...xs) ? `${xs[0]}` : `${Math.min(...xs)}-${Math.max(...xs)}`);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    for (const c of CONNECTIONS)
      for (const [workload, runs] of Object.entries(variants)) {
        const names = Object.keys(runs);
        const base = rates.get(`${workload}|${c}|${names[0]}`)!;
        const cells = names.map((n) => {
          const xs = rates.get(`${workload}|${c}|${n}`)!;
          return `${n} ${range(xs)}/s${n === names[0] ? '' : ` (${Math.round((mean(xs) / mean(base)) * 100)}% of ${names[0]})`}`;
        });
        verdict.push(`${workload} at ${c} in flight: ${cells.join('; ')}`);
      }
  } catch (err) {
    console.error(err);
    throw err;
  } finally {
    await db.drop();
  }
  return { rows: out, verdict };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  console.log(
    `drivers: ${os.cpus().length} CPUs, load average at start ${load()}, ${WALLETS} wallets, pool ${POOL}, BENCH_SECONDS=${DURATION}`,
  );
  const { rows: r, verdict } = await driverBench();
  table(r);
  console.log(`\n${verdict.map((l) => `- ${l}`).join('\n')}\nload average at end: ${load()}`);
}
