import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { rows } from '../src/db/client.js';
import { verifyLedger } from '../src/ledger/verify.js';
import { airtimeRequest, prepareBuyers, VTU_CONNECTIONS } from './buy-airtime.js';
import { cpuCost, cpuSnapshot } from './cpu.js';
import { DURATION, cannon, freshDatabase, measured, startServer, type Result, type Server } from './lib.js';

/**
 * The background work of purchases (issue 31): what the jobs a purchase leaves behind (notifications and their
 * deliveries, growth bookkeeping, receipts, whatever else it enqueues) cost, whether a burst's backlog drains in
 * less time than the burst took, and what it does to reads meanwhile.
 *
 * Three processes on one fresh database: the provider simulators, the API (jobs off: `JOBS_ENABLED=false`, as an
 * API tier with a worker tier beside it) and one worker (the same service with jobs on). The worker is stopped
 * (SIGSTOP) for the burst and continued when it ends, so all of the burst's background work runs after it, apart
 * from the requests: its CPU per purchase is the worker's own, and its drain time the whole backlog's. This is the
 * strict form: a worker that runs during the burst starts the drain with a smaller backlog.
 *
 * Runs: getWalletState for BENCH_SECONDS on the quiet API; buyAirtime for BENCH_BURST_SECONDS (15) at the VTU
 * concurrency; getWalletState again for BENCH_SECONDS right after, while the worker drains; the wait until no job is
 * due; getWalletState once more on the same data with no background work, the baseline of the reads during the
 * drain (the burst's purchases fill each wallet's statement page, so the read before the burst does less work).
 */
const BURST_SECONDS = Number(process.env.BENCH_BURST_SECONDS ?? 15);
const USERS = Number(process.env.BENCH_BURST_USERS ?? 100);

export interface BurstResult {
  rows: Result[];
  lines: string[];
  /** Before the burst, on the wallets' shorter history. */
  quiet: Result;
  during: Result;
  /** After the drain: the same data as `during`, without the background work (the goal's baseline). */
  after: Result;
  /** Purchases answered 2xx in the burst. */
  purchases: number;
  burstSeconds: number;
  /** Seconds from the worker's continuation to no job due; null when it did not drain within the wait. */
  drainSeconds: number | null;
  /** Worker CPU ms per purchase over the drain; PostgreSQL's over the same time (the reads measured meanwhile included). */
  workerMsPerPurchase: number | null;
  postgresMsPerPurchase: number | null;
  rss: { name: string; mb: number }[];
}

const due = async (db: Parameters<typeof rows>[0]) =>
  (await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM jobs WHERE status IN ('queued', 'running') AND run_at <= now()`))[0].n;

export async function purchaseBurst(): Promise<BurstResult> {
  const db = await freshDatabase('benchburst');
  const servers: Server[] = [];
  try {
    const env = { DATABASE_URL: db.url, SANDBOX: 'true', JOBS_ENABLED: 'false', NODE_ENV: 'development', VTU_PROVIDER_TIMEOUT_MS: '10000' };
    const simulator = await startServer('bench/vtu-server.ts', env);
    servers.push(simulator);
    const providers = Object.fromEntries(
      ['A', 'B', 'C', 'D'].map((p) => [`VTU_PROVIDER_${p}_URL`, `${simulator.url}/sandbox/providers/${p.toLowerCase()}`]),
    );
    const api = await startServer('bench/vtu-server.ts', { ...env, ...providers });
    servers.push(api);
    const worker = await startServer('bench/vtu-server.ts', { ...env, ...providers, JOBS_ENABLED: 'true' });
    servers.push(worker);
    const { users, database } = await prepareBuyers(api, db.url, USERS, 'burst');
    try {
      let n = 0;
      const buy = (req: any) => ({ ...req, ...airtimeRequest(users[n++ % users.length]) });
      // Warm-up (statements prepared, floats funded), and its jobs drained before the clock starts.
      await cannon('warm-up', { url: api.url, connections: 8, amount: 200, requests: [{ setupRequest: buy }] } as autocannon.Options);
      for (let i = 0; i < 600 && (await due(database.db)); i++) await new Promise((r) => setTimeout(r, 100));

      let w = 0;
      const read = {
        url: `${api.url}/_serverFn/getWalletStateBearerWallet`,
        setupClient: (client: any) => client.setHeaders({ authorization: `Bearer ${users[w++ % users.length].token}` }),
      } as autocannon.Options;
      const quiet = await measured(api, `getWalletState, quiet (${users.length} users)`, read);

      const [{ id: lastJob }] = await rows<{ id: string }>(database.db, sql`SELECT coalesce(max(id), 0)::text AS id FROM jobs`);
      worker.child.kill('SIGSTOP');
      let burst: Result;
      let burstSeconds: number;
      try {
        const burstStart = performance.now();
        const r = await autocannon({
          url: api.url,
          connections: VTU_CONNECTIONS,
          duration: BURST_SECONDS,
          requests: [{ setupRequest: buy }],
        } as autocannon.Options);
        burstSeconds = Math.round((performance.now() - burstStart) / 100) / 10;
        burst = {
          name: `buyAirtime burst, ${BURST_SECONDS} s, worker paused`,
          rps: Math.round(r.requests.average),
          p50: r.latency.p50,
          p99: r.latency.p99,
          errors: r.non2xx + r.errors + r.timeouts,
          total: r.requests.total,
          connections: VTU_CONNECTIONS,
        };
      } finally {
        worker.child.kill('SIGCONT');
      }
      const purchases = burst.total! - burst.errors;
      const backlog = await rows<{ queue: string; n: number }>(
        database.db,
        sql`SELECT queue, count(*)::int AS n FROM jobs WHERE id > ${lastJob}::bigint GROUP BY queue ORDER BY n DESC`,
      );
      const drainStart = performance.now();
      const cpuBefore = cpuSnapshot(worker.child.pid);
      // The backlog every second while the reads run and after, to see the worker's progress under the reads.
      const series: number[] = [];
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          series.push(await due(database.db));
          await new Promise((r) => setTimeout(r, 1000));
        }
      })();
      const during = await measured(api, `getWalletState, while the burst's background work runs`, read);
      const dueAfterRead = await due(database.db);
      let drainSeconds: number | null = null;
      for (let i = 0; i < 1200; i++) {
        if (!(await due(database.db))) {
          drainSeconds = Math.round((performance.now() - drainStart) / 100) / 10;
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      sampling = false;
      await sampler;
      const cost = cpuCost(cpuBefore, cpuSnapshot(worker.child.pid), purchases);
      const later = await rows<{ n: number }>(
        database.db,
        sql`SELECT count(*)::int AS n FROM jobs WHERE id > ${lastJob}::bigint AND status = 'queued' AND run_at > now()`,
      );
      const failed = await rows<{ queue: string; n: number }>(
        database.db,
        sql`SELECT queue, count(*)::int AS n FROM jobs WHERE id > ${lastJob}::bigint AND status = 'dead' GROUP BY queue`,
      );
      // The same reads once the backlog is done: the same wallets (each now holds the burst's purchases, which make
      // its statement page fuller than before the burst), the same API process, no background work.
      const after = await measured(api, `getWalletState, after the drain (same data, no background work)`, read);
      const report = await verifyLedger(database.db);
      if (report.breaches.length) throw new Error(`ledger breaches after the purchase burst: ${JSON.stringify(report.breaches)}`);
      const per = (x: number) => (x / purchases).toFixed(2);
      const lines = [
        `purchase burst: ${purchases} purchases in ${BURST_SECONDS} s (${burst.rps}/s, p99 ${burst.p99} ms, ${burst.errors} non-2xx) left ${backlog.reduce((a, b) => a + b.n, 0)} jobs: ${backlog.map((b) => `${b.queue} ${per(b.n)}`).join(', ')} per purchase`,
        `  worker CPU ${cost?.server ?? '?'} ms per purchase (PostgreSQL ${cost?.postgres ?? '?'} ms, the reads measured meanwhile included); drained in ${drainSeconds ?? '> 120'} s after the burst (${dueAfterRead} jobs still due after the ${DURATION} s read run; due each second from the worker's start: ${series.join(' ')}); ${later[0].n} scheduled for later; dead: ${failed.length ? failed.map((f) => `${f.queue} ${f.n}`).join(', ') : 'none'}; ledger ok`,
      ];
      return {
        rows: [burst, quiet, during, after],
        lines,
        quiet,
        during,
        after,
        purchases,
        burstSeconds,
        drainSeconds,
        workerMsPerPurchase: cost?.server ?? null,
        postgresMsPerPurchase: cost?.postgres ?? null,
        rss: [
          { name: 'burst API', mb: api.peakRssMb() },
          { name: 'burst worker', mb: worker.peakRssMb() },
        ],
      };
    } finally {
      await database.close();
    }
  } finally {
    for (const s of servers.reverse()) await s.stop();
    await db.drop();
  }
}
