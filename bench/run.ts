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
import { buyAirtimeBench, VTU_CONNECTIONS, vtuLedgerBreaches, vtuPeakRssMb } from './buy-airtime.js';
import { buyByKeyBench } from './buy-by-key.js';
import { goalTable, p99Goal, percent, rate, rateGoal, times, type Goal } from './goals.js';
import { purchaseBurst } from './purchase-burst.js';
import { oneStatementTransfers, setupSqlTransfer } from './sql-transfer.js';
import { aloneTransfers, rawSqlTransfers, serviceTransfers } from './ledger-transfers.js';
import { CORES, ceiling } from './cpu.js';
import { webhookStage } from './webhooks.js';
import { stormStage } from './storm.js';
import { WAL_HEADER, walLine, walWindow, type WalCost } from './wal.js';
import {
  DURATION,
  cannon,
  freshDatabase,
  json,
  measured,
  profileArgs,
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
 * One table, one machine, one run: each full-API figure next to its baseline, then issue 31's goals, each against
 * its baseline of the same run ("goal | measured | baseline | ratio | met?").
 * BENCH_ONLY=wallet,transfer,vtu,key,burst,webhook,storm,export runs a subset (the baselines always run: bare Fastify, and the
 * one-statement SQL transfer when transfers or purchases are measured). BENCH_CPU_PROF=1 writes CPU profiles of the
 * wallet/transfer and VTU services into bench/profiles/ with the windows of their measured runs
 * (bench/profile-summary.ts).
 */
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : null;
const want = (k: string) => !only || only.has(k);
const TRANSFER_USERS = Number(process.env.BENCH_TRANSFER_USERS ?? 128);
const TRANSFER_CONNECTIONS = [16, 64];
const PIN = '1234';

const out: Result[] = [];
const goals: Goal[] = [];
/** Where the ledger invariants were checked after a stage (a breach stops the bench there). */
const ledgerChecked: string[] = [];
let ledgerBreaches = 0;
/** What each target asks of this machine against what its CPU allows (printed under the table). */
const reach: string[] = [];
const perSecond = (n: number | null) => (n === null ? '?' : `${n.toLocaleString('en')}/s`);
const rss: { name: string; mb: number }[] = [];
/** Commits and WAL per request of the money runs (bench/wal.ts). */
const walLines: string[] = [];
const pct = (a: number, b: number) => `${Math.round((a / b) * 100)}%`;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load average at start ${load()}`);

const hello = await startServer('bench/hello-server.ts', {});
const bare = await cannon('bare Fastify hello-world', { url: `${hello.url}/` }, hello.child.pid);
const bareRssMb = hello.peakRssMb();
await hello.stop();
out.push(bare);

// The issue's transfer baseline: one statement over pg, 10,000 wallets (bench/sql-transfer.ts), at each concurrency
// a goal compares against, on a database of its own.
const sqlAt = new Map<number, Result>();
if (want('transfer') || want('vtu')) {
  const db = await freshDatabase('benchsql');
  try {
    await setupSqlTransfer(db.url);
    for (const c of new Set([...TRANSFER_CONNECTIONS, ...(want('vtu') ? [VTU_CONNECTIONS] : [])])) {
      const r = await oneStatementTransfers(db.url, c);
      sqlAt.set(c, r);
      out.push(r);
    }
  } finally {
    await db.drop();
  }
}

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
    const svc = await startServer('bench/service-server.ts', serviceEnv(db.url, false), profileArgs());
    try {
      const users = await signInMany(svc, TRANSFER_USERS, 'bench');
      if (want('wallet')) {
        let i = 0;
        const wallet = await measured(
          svc,
          `getWalletState (${users.length} users)`,
          {
            url: `${svc.url}/_serverFn/getWalletStateBearerWallet`,
            setupClient: (client) => {
              client.setHeaders({ authorization: `Bearer ${users[i++ % users.length].token}` });
            },
          },
          'wallet',
        );
        out.push({
          ...wallet,
          ratio: `${pct(wallet.rps, bare.rps)} of bare (>= 15%)`,
          met: wallet.rps >= 0.15 * bare.rps && wallet.errors === 0,
        });
        goals.push(rateGoal('getWalletState >= 15% of bare Fastify', wallet, bare, 0.15));
        const [w, b] = [ceiling(wallet.cpu), ceiling(bare.cpu)];
        if (w && b)
          reach.push(
            `getWalletState >= 15% of bare Fastify: its CPU ceiling is ${pct(w, b)} of bare's (${perSecond(w)} against ${perSecond(b)}; a database read against no work at all)`,
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
        // The earlier baseline, printed beside the issue's: a multi-statement transaction on the service's hot accounts.
        const raw = await rawSqlTransfers(db.url, { workers: 64, accounts: users.length, poolSize: 20 });
        out.push(raw);
        // The ledger core alone (ledger.post in a transaction), same concurrency and pool as the raw loop.
        const core = await serviceTransfers(db.url, { workers: 64, accounts: users.length, poolSize: 20 });
        out.push({ ...core, ratio: `${pct(core.rps, raw.rps)} of raw SQL (>= 50%)`, met: core.rps >= 0.5 * raw.rps && core.errors === 0 });
        // The posting a transfer makes, postAlone as the service configures its batches (issue 31, "postings in batches").
        const batch = { max: Number(process.env.LEDGER_BATCH_MAX ?? 32), waitMs: Number(process.env.LEDGER_BATCH_WAIT_MS ?? 0) };
        const alone = await aloneTransfers(db.url, { workers: 64, accounts: users.length, poolSize: 20, batch }, walWindow);
        out.push(alone.result);
        walLines.push(walLine('ledger.postAlone, 64 loops', alone.wal as WalCost, alone.result.total ?? 0));
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
        const transfers = new Map<number, Result>();
        for (const c of TRANSFER_CONNECTIONS) {
          const base = sqlAt.get(c)!;
          const wal = await walWindow(db.url);
          const t = await measured(
            svc,
            `transferWalletFn, PIN + Idempotency-Key (${users.length} users)`,
            { url: svc.url, connections: c, requests: [{ setupRequest: transferRequest }] } as autocannon.Options,
            `transferWalletFn c=${c}`,
          );
          walLines.push(walLine(`transferWalletFn c=${c}`, await wal(), t.total ?? 0));
          transfers.set(c, t);
          out.push({
            ...t,
            ratio: `${pct(t.rps, base.rps)} of one-statement SQL, p99 ${times(t.p99, base.p99)}; ${pct(t.rps, raw.rps)} of the multi-statement loop`,
            met: t.rps >= 0.5 * base.rps && t.errors === 0 && (c !== 64 || t.p99 <= 2 * base.p99),
          });
          goals.push(rateGoal(`transferWalletFn >= 50% of the one-statement SQL transfer, ${c} in flight`, t, base, 0.5));
          const [tc, sc] = [ceiling(t.cpu), ceiling(base.cpu, true)];
          if (tc && sc)
            reach.push(
              `transferWalletFn at ${c} in flight: CPU ceiling ${perSecond(tc)}, the one-statement SQL transfer's ${perSecond(sc)} (${pct(tc, sc)})`,
            );
        }
        goals.push(p99Goal("transferWalletFn p99 at 64 in flight <= 2x the SQL transfer's", transfers.get(64)!, sqlAt.get(64)!, 2));
        const report = await verifyLedger(database.db);
        if (report.breaches.length) throw new Error(`ledger breaches after transfers: ${JSON.stringify(report.breaches)}`);
        ledgerChecked.push('transfers');
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
  const base = sqlAt.get(VTU_CONNECTIONS)!;
  out.push(spread);
  out.push({
    ...one,
    ratio: `${one.ratio ?? ''}; ${pct(one.rps, base.rps)} of one-statement SQL, p99 ${times(one.p99, base.p99)}`,
    met: one.rps >= 0.25 * base.rps && one.p99 <= 4 * base.p99 && one.errors === 0,
  });
  goals.push(
    rateGoal(`buyAirtime (simulators in their own process) >= 25% of the SQL transfer, ${VTU_CONNECTIONS} in flight`, one, base, 0.25),
  );
  goals.push(p99Goal("buyAirtime p99 <= 4x the SQL transfer's", one, base, 4));
  rss.push({ name: 'VTU service', mb: vtuPeakRssMb });
  ledgerChecked.push('purchases');
  ledgerBreaches += vtuLedgerBreaches;
  reach.push(
    `VTU purchases: CPU ceiling ${perSecond(ceiling(spread.cpu))} spread, ${perSecond(ceiling(one.cpu))} on one provider (${process.env.BENCH_VTU_SIMULATOR === 'inline' ? "the simulators' share included" : "the simulators' process left out; their statements are in PostgreSQL's share"})`,
  );
}

// Issue 45: the same purchase by live API key and by session, in alternated windows (bench/buy-by-key.ts).
if (want('key')) {
  const k = await buyByKeyBench();
  out.push(...k.rows);
  goals.push({
    goal: 'a purchase by API key costs no more than by session (alternated windows, within 10%)',
    measured: k.summary,
    baseline: k.rows[0].name,
    ratio: k.rows[1].ratio ?? '',
    met: k.met,
  });
}

// Issue 31: the background work a burst of purchases leaves behind, and reads while it runs (bench/purchase-burst.ts).
const burstLines: string[] = [];
if (want('burst')) {
  const b = await purchaseBurst();
  out.push(...b.rows);
  burstLines.push(...b.lines);
  rss.push(...b.rss);
  ledgerChecked.push('purchase burst');
  goals.push({
    goal: "getWalletState no more than 20% lower while a 15 s purchase burst's background work runs",
    measured: rate(b.during),
    // The same reads on the same data with the backlog done; before the burst the wallets' pages were emptier.
    baseline: `getWalletState after the drain, same data and API process: ${rate(b.after)} (before the burst, shorter statements: ${rate(b.quiet)})`,
    ratio: percent(b.during.rps, b.after.rps),
    met: b.during.rps >= 0.8 * b.after.rps && b.during.errors === 0,
  });
  goals.push({
    goal: "a burst's background work (notifications, growth, receipts, jobs) drains in less time than the burst took",
    measured: `drained in ${b.drainSeconds ?? '> 120'} s; worker CPU ${b.workerMsPerPurchase ?? '?'} ms per purchase (PostgreSQL ${b.postgresMsPerPurchase ?? '?'} ms)`,
    baseline: `the burst: ${b.burstSeconds} s, ${b.purchases} purchases`,
    ratio: b.drainSeconds === null ? '?' : times(b.drainSeconds, b.burstSeconds),
    met: b.drainSeconds !== null && b.drainSeconds < b.burstSeconds,
  });
}

// Issue 31: webhooks offered at rising rates; ack p99, share answered 429, credit-visible p99 (bench/webhooks.ts).
const webhookLines: string[] = [];
if (want('webhook')) {
  const stage = await webhookStage({ serviceEnv, signInMany });
  out.push(...stage.rows);
  webhookLines.push(...stage.lines);
  rss.push({ name: 'webhook service (jobs on)', mb: stage.rssMb });
  ledgerChecked.push('webhook credits');
  goals.push({
    goal: 'webhooks: credit visible p99 < 1 s at every offered rate; what is not credited in time answered 429 + Retry-After',
    measured: `highest offered rate with credit p99 < 1 s: ${stage.best === null ? 'none' : `${stage.best}/s`}`,
    baseline: `offered ${stage.rates.join(', ')}/s, ${DURATION} s each`,
    ratio: '',
    met: stage.allMet,
  });
}

// Issue 42: a webhook storm right after a purchase burst, its background work still draining (bench/storm.ts).
const stormLines: string[] = [];
if (want('storm')) {
  const st = await stormStage();
  out.push(...st.rows);
  stormLines.push(...st.lines);
  rss.push({ name: 'storm service (jobs on)', mb: st.rssMb });
  ledgerChecked.push('storm credits');
  goals.push({
    goal: 'a 1,000/s webhook storm after a purchase burst: what is acknowledged is credited within 1 s p99, the rest refused',
    measured: `${st.acknowledged} acknowledged, ${st.refused} refused; ack to credited p50 ${st.p50} ms, p99 ${st.p99 === Infinity ? '> 30 s' : `${st.p99} ms`}`,
    baseline: '',
    ratio: '',
    met: st.met,
  });
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
const largest = rss.find((r) => r.mb === peak);
goals.push({
  goal: 'peak RSS < 200 MB under the whole bench',
  measured: `${peak} MB (${largest?.name ?? '?'})`,
  baseline: `bare Fastify: ${bareRssMb} MB`,
  ratio: times(peak, bareRssMb),
  met: peak < 200,
});
goals.push({
  goal: 'ledger invariants hold after the bench (verifyLedger, as npm run ledger:verify)',
  measured: ledgerChecked.length ? `checked after ${ledgerChecked.join(', ')}: ${ledgerBreaches} breaches` : 'no money stage run',
  baseline: '',
  ratio: '',
  met: ledgerChecked.length ? ledgerBreaches === 0 : null,
});
table(out);
if (reach.length)
  console.log(
    `\nWhat the targets ask of this machine (${CORES} cores; ceiling = cores x 1000 / CPU ms of server + PostgreSQL per request, the load generator elsewhere):\n${reach.map((l) => `- ${l}`).join('\n')}`,
  );
console.log(
  `\nservice peak RSS: ${peak} MB (${rss.map((r) => `${r.name} ${r.mb}`).join('; ')}); target < 200 MB: ${peak < 200 ? 'met' : 'NOT met'}`,
);
if (walLines.length) console.log(`\nCommits and WAL of the money runs (bench/wal.ts):\n${WAL_HEADER}\n${walLines.join('\n')}`);
if (burstLines.length) console.log(`\n${burstLines.join('\n')}`);
if (webhookLines.length) console.log(`\n${webhookLines.join('\n')}`);
if (stormLines.length) console.log(`\n${stormLines.join('\n')}`);
if (exportLines.length) console.log(`\n${exportLines.join('\n')}`);
console.log(`\nload average at end: ${load()}; BENCH_SECONDS=${DURATION}`);
console.log(`\nIssue 31's goals (${CORES} cores, load average at end ${load()}):\n${goalTable(goals)}`);
