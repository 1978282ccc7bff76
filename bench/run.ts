import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client.js';
import { createLedger } from '../src/ledger/ledger.js';
import { verifyLedger } from '../src/ledger/verify.js';
import { systemClock } from '../src/kernel/clock.js';
import { buyAirtimeBench, vtuPeakRssMb } from './buy-airtime.js';
import { rawSqlTransfers, serviceTransfers } from './ledger-transfers.js';
import { CORES, ceiling } from './cpu.js';
import { webhookStage } from './webhooks.js';
import {
  DURATION,
  cannon,
  freshDatabase,
  json,
  measured,
  setPinOver,
  signInOver,
  startServer,
  table,
  type Result,
  type Server,
  SERVER_NODE_FLAGS,
} from './lib.js';

/**
 * `npm run bench`: bounded load runs on loopback against real servers on PostgreSQL (BENCH_DATABASE_URL,
 * default postgres://postgres@127.0.0.1:5432/postgres; a fresh database per run), BENCH_SECONDS per run (5).
 * One table, one machine, one run: each full-API figure next to its baseline and the issue's target.
 * BENCH_ONLY=wallet,transfer,vtu,webhook,export runs a subset (the baselines always run).
 */
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : null;
const want = (k: string) => !only || only.has(k);
const TRANSFER_USERS = Number(process.env.BENCH_TRANSFER_USERS ?? 128);
const TRANSFER_CONNECTIONS = 64;
const PIN = '1234';

const out: Result[] = [];
/** What each target asks of this machine against what its CPU allows (printed under the table). */
const reach: string[] = [];
const perSecond = (n: number | null) => (n === null ? '?' : `${n.toLocaleString('en')}/s`);
const rss: { name: string; mb: number }[] = [];
const pct = (a: number, b: number) => `${Math.round((a / b) * 100)}%`;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load average at start ${load()}`);

const hello = await startServer('bench/hello-server.ts', {});
const bare = await cannon('bare Fastify hello-world', { url: `${hello.url}/` }, hello.child.pid);
await hello.stop();
out.push(bare);

const serviceEnv = (url: string, jobs: boolean) => ({
  DATABASE_URL: url,
  SANDBOX: 'true',
  JOBS_ENABLED: String(jobs),
  NODE_ENV: 'development',
});

async function fund(dbUrl: string, userIds: string[]) {
  const database = await openDatabase({ url: dbUrl, dataDir: '/tmp' });
  const ledger = createLedger({ clock: systemClock });
  for (const id of userIds) {
    await database.db.transaction((tx) =>
      ledger.post(tx, {
        reference: `bench_fund_${id}`,
        type: 'adjustment',
        description: 'benchmark funding',
        entries: [
          { account: { user: id, kind: 'wallet' }, amount: 10_000_000n },
          { account: { system: 'adjustments' }, amount: -10_000_000n },
        ],
      }),
    );
  }
  return database;
}

async function signInMany(svc: Server, n: number, prefix: string) {
  const users: { token: string; userId: string; email: string }[] = [];
  for (let i = 0; i < n; i += 16) {
    users.push(
      ...(await Promise.all(Array.from({ length: Math.min(16, n - i) }, (_, j) => signInOver(svc.url, `${prefix}${i + j}@example.com`)))),
    );
  }
  return users;
}

if (want('wallet') || want('transfer')) {
  const db = await freshDatabase();
  try {
    const svc = await startServer(
      'bench/service-server.ts',
      serviceEnv(db.url, false),
      process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=bench/profiles'] : [],
    );
    try {
      const users = await signInMany(svc, TRANSFER_USERS, 'bench');
      if (want('wallet')) {
        let i = 0;
        const wallet = await measured(svc, `getWalletState (${users.length} users)`, {
          url: `${svc.url}/_serverFn/getWalletStateBearerWallet`,
          setupClient: (client) => {
            client.setHeaders({ authorization: `Bearer ${users[i++ % users.length].token}` });
          },
        });
        out.push({
          ...wallet,
          ratio: `${pct(wallet.rps, bare.rps)} of bare (>= 20%)`,
          met: wallet.rps >= 0.2 * bare.rps && wallet.errors === 0,
        });
        const [w, b] = [ceiling(wallet.cpu), ceiling(bare.cpu)];
        if (w && b)
          reach.push(
            `getWalletState >= 20% of bare Fastify: its CPU ceiling is ${pct(w, b)} of bare's (${perSecond(w)} against ${perSecond(b)}; a database read against no work at all)`,
          );
      }
      if (want('transfer')) {
        // Tier 2 with a verified name matching the profile, as the KYC review leaves it (test/kyc/factories.ts).
        const database = await fund(
          db.url,
          users.map((u) => u.userId),
        );
        for (const [n, u] of users.entries()) {
          await database.db.execute(
            sql`UPDATE users SET username = ${`bench${n}`}, full_name = 'Ada Grace Obi', kyc_tier = 2 WHERE id = ${u.userId}`,
          );
          await database.db
            .execute(sql`INSERT INTO kyc_submissions (id, user_id, tier, status, files, verified_name, details, created_at, updated_at, reviewed_at)
            VALUES (${randomUUID()}, ${u.userId}, 2, 'approved', '[]'::jsonb, 'Ada Grace Obi', '{}'::jsonb, now(), now(), now())`);
        }
        for (const u of users) {
          await setPinOver(svc.url, u, PIN);
        }
        const raw = await rawSqlTransfers(db.url, { workers: TRANSFER_CONNECTIONS, accounts: users.length, poolSize: 20 });
        out.push(raw);
        // The ledger core alone (ledger.post in a transaction), same concurrency and pool as the raw loop.
        const core = await serviceTransfers(db.url, { workers: TRANSFER_CONNECTIONS, accounts: users.length, poolSize: 20 });
        out.push({ ...core, ratio: `${pct(core.rps, raw.rps)} of raw SQL (>= 50%)`, met: core.rps >= 0.5 * raw.rps && core.errors === 0 });
        // Random pairs, as in the raw-SQL loop: consecutive requests sharing a wallet would make a lock chain that
        // measures the bench, not the service.
        const transferRequest = (req: any) => {
          const a = Math.floor(Math.random() * users.length);
          let target = Math.floor(Math.random() * users.length);
          if (target === a) target = (a + 1) % users.length;
          const from = users[a];
          return {
            ...req,
            method: 'POST',
            path: '/_serverFn/transferWalletFnBearerWallet',
            headers: { authorization: `Bearer ${from.token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
            body: JSON.stringify({ data: { username: `bench${target}`, amount: 50, pin: PIN } }),
          };
        };
        // Warm-up, as for VTU: each user's first transfer checks the PIN with scrypt (once per instance, then the
        // verified-PIN memo) and prepares the statements; the measured run is the steady state.
        await cannon('warm-up', {
          url: svc.url,
          connections: 8,
          amount: users.length * 4,
          requests: [{ setupRequest: transferRequest }],
        } as autocannon.Options);
        const transfer = await measured(svc, `transferWalletFn, PIN + Idempotency-Key (${users.length} users)`, {
          url: svc.url,
          connections: TRANSFER_CONNECTIONS,
          requests: [{ setupRequest: transferRequest }],
        } as autocannon.Options);
        const [t, r] = [ceiling(transfer.cpu), ceiling(raw.cpu, true)];
        // Little's law: connections = rate x latency, so p99 < 25 ms at 64 connections needs at least 64 / 0.025 s.
        if (t && r)
          reach.push(
            `transferWalletFn p99 < 25 ms at ${TRANSFER_CONNECTIONS} connections needs >= ${perSecond(TRANSFER_CONNECTIONS / 0.025)} (Little's law); CPU ceiling ${perSecond(t)}, the raw SQL loop's own ${perSecond(r)}; >= 50% of raw: the ceilings' ratio is ${pct(t, r)}`,
          );
        out.push({
          ...transfer,
          ratio: `${pct(transfer.rps, raw.rps)} of raw SQL (>= 50%, p99 < 25 ms)`,
          met: transfer.rps >= 0.5 * raw.rps && transfer.p99 < 25 && transfer.errors === 0,
        });
        const report = await verifyLedger(database.db);
        if (report.breaches.length) throw new Error(`ledger breaches after transfers: ${JSON.stringify(report.breaches)}`);
        await database.close();
      }
      if (!(await json(`${svc.url}/readyz`)).ok) throw new Error('service not ready');
      rss.push({ name: 'wallet/transfer service', mb: svc.peakRssMb() });
    } finally {
      await svc.stop();
    }
  } finally {
    await db.drop();
  }
}

if (want('vtu')) {
  const [spread, one] = await buyAirtimeBench();
  out.push({ ...spread, met: spread.rps >= 2000 && spread.p99 < 50, ratio: `${spread.ratio ?? ''} (>= 2,000/s, p99 < 50 ms)` });
  out.push({
    ...one,
    met: one.rps >= 2000 && one.p99 < 50 && one.rps >= 0.8 * spread.rps,
    ratio: `${one.ratio ?? ''}; >= 2,000/s, p99 < 50 ms`,
  });
  rss.push({ name: 'VTU service', mb: vtuPeakRssMb });
  reach.push(
    `VTU purchases >= 2,000/s: CPU ceiling ${perSecond(ceiling(spread.cpu))} spread, ${perSecond(ceiling(one.cpu))} on one provider (${process.env.BENCH_VTU_SIMULATOR === 'inline' ? "the simulators' share included" : "the simulators' process left out; their statements are in PostgreSQL's share"})`,
  );
}

// Issue 31: webhooks offered at rising rates; ack p99, share answered 429, credit-visible p99 (bench/webhooks.ts).
const webhookLines: string[] = [];
if (want('webhook')) {
  const stage = await webhookStage({ serviceEnv, signInMany });
  out.push(...stage.rows);
  webhookLines.push(...stage.lines);
  rss.push({ name: 'webhook service (jobs on)', mb: stage.rssMb });
}

// Issue 30: a 100,000-entry ledger export streamed with flat memory, in its own process (its RSS is the export's).
const exportLines: string[] = [];
if (want('export')) {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', 'bench/export-memory.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let text = '';
  child.stdout.on('data', (d: Buffer) => (text += d.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  exportLines.push(...(code === 0 ? text.trim().split('\n') : [`export memory benchmark failed (exit ${code})`]));
}

const peak = Math.max(...rss.map((r) => r.mb));
table(out);
if (reach.length)
  console.log(
    `\nWhat the targets ask of this machine (${CORES} cores; ceiling = cores x 1000 / CPU ms of server + PostgreSQL per request, the load generator elsewhere):\n${reach.map((l) => `- ${l}`).join('\n')}`,
  );
console.log(
  `\nservice peak RSS: ${peak} MB (${rss.map((r) => `${r.name} ${r.mb}`).join('; ')}); target < 200 MB: ${peak < 200 ? 'met' : 'NOT met'}`,
);
if (webhookLines.length) console.log(`\n${webhookLines.join('\n')}`);
if (exportLines.length) console.log(`\n${exportLines.join('\n')}`);
console.log(`\nload average at end: ${load()}; BENCH_SECONDS=${DURATION}`);
