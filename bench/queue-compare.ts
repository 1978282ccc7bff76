import { createRequire } from 'node:module';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { z } from 'zod';
import { openDatabase, type Database } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { JobQueue } from '../src/jobs/queue.js';
import { systemClock } from '../src/kernel/clock.js';
import { createLogger } from '../src/lib/logger.js';
import { freshDatabase } from './lib.js';

/**
 * Issue 42, item 5: our job queue (src/jobs) against pg-boss and Graphile Worker on the machine's PostgreSQL
 * (BENCH_DATABASE_URL), a fresh database each. Neither library is one of the project's packages: install them apart
 * (`mkdir -p /tmp/qc && cd /tmp/qc && npm init -y && npm install pg-boss graphile-worker`) and point QUEUE_COMPARE_MODULES
 * at that folder (default /tmp/qc). Not part of `npm test` or `npm run bench`: `npx tsx bench/queue-compare.ts`.
 *
 * Per queue, QC_JOBS (5,000) jobs: enqueue inside the caller's transaction (a row of its own and the job, one
 * transaction each, 8 callers at once), one batch enqueue of all of them in one call, the drain of that batch by a
 * worker of 8 at once (jobs that do nothing: the queue's own cost), and priorities: QC_JOBS low-priority jobs, then
 * 100 urgent ones, and where the urgent ones finished in the drain's order (what a webhook credit behind a burst's
 * notifications meets).
 */
const JOBS = Number(process.env.QC_JOBS ?? 5000);
const URGENT = 100;
const CALLERS = 8;
const CONCURRENCY = 8;
/** pg-boss fetches a batch per poll (0.5 s at least) and waits for the next poll: QC_BOSS_BATCH jobs a fetch (100). */
const BOSS_BATCH = Number(process.env.QC_BOSS_BATCH ?? 100);
const MODULES = process.env.QUEUE_COMPARE_MODULES ?? '/tmp/qc';
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface Contender {
  name: string;
  /** One caller's transaction: its own row and one job. */
  enqueueInTx(client: pg.PoolClient, i: number): Promise<void>;
  enqueueBatch(names: { queue: string; n: number; priority: number }[]): Promise<void>;
  /** Runs a worker until `count` jobs have run; `seen` hears each job's queue in the order they ran. */
  drain(count: number, seen: (queue: string) => void): Promise<void>;
  close(): Promise<void>;
}

const since = (t: number) => Math.round(performance.now() - t);

async function measure(c: Contender, pool: pg.Pool) {
  await pool.query('CREATE TABLE IF NOT EXISTS qc_rows (id int PRIMARY KEY)');
  let next = 0;
  let t = performance.now();
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      const client = await pool.connect();
      try {
        for (let i = next++; i < JOBS; i = next++) {
          await client.query('BEGIN');
          await client.query('INSERT INTO qc_rows (id) VALUES ($1)', [i]);
          await c.enqueueInTx(client, i);
          await client.query('COMMIT');
        }
      } finally {
        client.release();
      }
    }),
  );
  const inTx = Math.round((JOBS / since(t)) * 1000);
  await c.drain(JOBS, () => undefined);
  t = performance.now();
  await c.enqueueBatch([{ queue: 'qc_low', n: JOBS, priority: 0 }]);
  const batch = since(t);
  t = performance.now();
  await c.drain(JOBS, () => undefined);
  const drain = since(t);
  await c.enqueueBatch([
    { queue: 'qc_low', n: JOBS, priority: 0 },
    { queue: 'qc_urgent', n: URGENT, priority: 10 },
  ]);
  const order: string[] = [];
  await c.drain(JOBS + URGENT, (q) => order.push(q));
  const last = order.lastIndexOf('qc_urgent') + 1;
  return { inTx, batch, drain, urgentDoneAfter: last };
}

async function ours(url: string): Promise<Contender> {
  const database: Database = await openDatabase({ url, dataDir: '/tmp' });
  await migrate(database);
  const q = new JobQueue(database.db, systemClock, createLogger({ level: 'silent' }));
  let seen: (queue: string) => void = () => undefined;
  let ran = 0;
  for (const [name, priority] of [
    ['qc_low', 0],
    ['qc_urgent', 10],
  ] as const)
    q.register({ name, priority, payload: z.object({ i: z.number() }), handler: async () => (ran++, seen(name)) });
  const dialect = new PgDialect();
  return {
    name: 'src/jobs',
    async enqueueInTx(client, i) {
      // enqueueSql: the statement enqueue() runs inside the caller's transaction, here on the caller's connection.
      const { sql: text, params } = dialect.sqlToQuery(q.enqueueSql('qc_low', { i }));
      await client.query(text, params);
    },
    async enqueueBatch(list) {
      for (const { queue, n } of list)
        for (let i = 0; i < n; i += 1000)
          await q.enqueueMany(
            database.db,
            Array.from({ length: Math.min(1000, n - i) }, (_, k) => ({ name: queue, payload: { i: i + k } })),
          );
    },
    async drain(count, hear) {
      seen = hear;
      ran = 0;
      q.start(20, CONCURRENCY);
      while (ran < count) await new Promise((r) => setTimeout(r, 5));
      await q.stop();
    },
    close: () => database.close(),
  };
}

async function importFrom(pkg: string) {
  const require = createRequire(`${MODULES}/`);
  return import(pathToFileURL(require.resolve(pkg)).href);
}

async function pgBoss(url: string): Promise<Contender> {
  const { PgBoss } = await importFrom('pg-boss');
  const boss = new PgBoss({ connectionString: url, max: 10 });
  boss.on('error', () => undefined);
  await boss.start();
  for (const name of ['qc_low', 'qc_urgent']) await boss.createQueue(name);
  let seen: (queue: string) => void = () => undefined;
  let ran = 0;
  return {
    name: 'pg-boss',
    async enqueueInTx(client, i) {
      // pg-boss's own insert, run on the caller's connection inside its transaction (the `db` option).
      await boss.send('qc_low', { i }, { db: { executeSql: (text: string, values: unknown[]) => client.query(text, values) } });
    },
    async enqueueBatch(list) {
      for (const { queue, n, priority } of list)
        await boss.insert(
          queue,
          Array.from({ length: n }, (_, i) => ({ data: { i }, priority })),
        );
    },
    async drain(count, hear) {
      seen = hear;
      ran = 0;
      // Queues are worked apart: a priority orders jobs within its own queue only; the urgent queue gets a worker of its own.
      await Promise.all(
        ['qc_urgent', 'qc_low'].map((name) =>
          boss.work(name, { batchSize: BOSS_BATCH, pollingIntervalSeconds: 0.5 }, async (jobs: unknown[]) => {
            for (let k = 0; k < jobs.length; k++) {
              ran++;
              seen(name);
            }
          }),
        ),
      );
      while (ran < count) await new Promise((r) => setTimeout(r, 5));
      for (const name of ['qc_urgent', 'qc_low']) await boss.offWork(name);
    },
    close: () => boss.stop({ graceful: false }),
  };
}

async function graphile(url: string): Promise<Contender> {
  const gw = await importFrom('graphile-worker');
  const utils = await gw.makeWorkerUtils({ connectionString: url });
  await utils.migrate();
  let seen: (queue: string) => void = () => undefined;
  let ran = 0;
  const task = (name: string) => async () => void (ran++, seen(name));
  return {
    name: 'Graphile Worker',
    async enqueueInTx(client, i) {
      await client.query(`SELECT graphile_worker.add_job('qc_low', $1::json)`, [JSON.stringify({ i })]);
    },
    async enqueueBatch(list) {
      for (const { queue, n, priority } of list)
        // add_jobs: many specs in one statement (Graphile Worker's priority runs lowest first).
        await utils.withPgClient((c: pg.PoolClient) =>
          c.query(
            `SELECT graphile_worker.add_jobs(array(SELECT json_populate_recordset(null::graphile_worker.job_spec,
               (SELECT json_agg(json_build_object('identifier', $1::text, 'payload', json_build_object('i', g), 'priority', $2::int)) FROM generate_series(1, $3::int) g))))`,
            [queue, -priority, n],
          ),
        );
    },
    async drain(count, hear) {
      seen = hear;
      ran = 0;
      const runner = await gw.run({
        connectionString: url,
        concurrency: CONCURRENCY,
        noHandleSignals: true,
        pollInterval: 500,
        logger: new gw.Logger(() => () => undefined),
        taskList: { qc_low: task('qc_low'), qc_urgent: task('qc_urgent') },
      });
      while (ran < count) await new Promise((r) => setTimeout(r, 5));
      await runner.stop();
    },
    close: () => utils.release(),
  };
}

const which = (process.env.QC_ONLY ?? 'ours,pg-boss,graphile').split(',');
const makers: Record<string, (url: string) => Promise<Contender>> = { ours, 'pg-boss': pgBoss, graphile };
console.log(`queue comparison: ${JOBS} jobs, ${CALLERS} callers, worker concurrency ${CONCURRENCY}; load average ${load()}`);
console.log(
  "| queue | enqueue in the caller's transaction | batch enqueue of all | drain (no-op jobs) | 100 urgent behind the backlog: done after |",
);
console.log('|---|---|---|---|---|');
for (const key of which) {
  const db = await freshDatabase('benchqc');
  const pool = new pg.Pool({ connectionString: db.url, max: CALLERS });
  try {
    const c = await makers[key](db.url);
    try {
      const r = await measure(c, pool);
      const { rows: counted } = await pool.query('SELECT count(*)::int AS n FROM qc_rows');
      const n = counted[0].n as number;
      console.log(
        `| ${c.name} | ${r.inTx.toLocaleString('en')}/s (${n} rows) | ${r.batch} ms | ${r.drain} ms (${Math.round((JOBS / r.drain) * 1000).toLocaleString('en')}/s) | ${r.urgentDoneAfter} of ${JOBS + URGENT} jobs |`,
      );
    } finally {
      await c.close();
    }
  } finally {
    await pool.end();
    await db.drop();
  }
}
console.log(`load average at end ${load()}`);
