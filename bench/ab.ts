import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type autocannon from 'autocannon';
import {
  cannon,
  freshDatabase,
  monotonicUs,
  profileArgs,
  recordWindow,
  setPinOver,
  signInOver,
  startServer,
  type Result,
  type Server,
} from './lib.js';

/**
 * `npm run bench:ab -- <other checkout>`: this checkout's transfers against another's (a commit to compare with, in
 * a worktree with node_modules and its own `BUILD_BENCH=1 node scripts/build.mjs`), both services running at once on
 * fresh databases of the same PostgreSQL, measured in interleaved windows: each round runs both at 16 and at 64 in
 * flight, one after the other, the order swapped every round. A machine whose speed drifts from minute to minute (a
 * shared VM) drifts for both alike, which whole `npm run bench` runs minutes apart do not give. AB_ROUNDS rounds (8),
 * BENCH_SECONDS a window (5). Prints each window, then each side's total and the ratio of the totals. BENCH_CPU_PROF=1:
 * each side writes a CPU profile into its checkout's bench/profiles/, and windows.json here names each window
 * (`<side> c=<in flight> r<round>`, for bench/profile-summary.ts --window).
 */
const other = process.argv[2];
if (!other) throw new Error('usage: npm run bench:ab -- <other checkout>');
const ROUNDS = Number(process.env.AB_ROUNDS ?? 8);
const CALLGRIND = Boolean(process.env.BENCH_CALLGRIND);
/** Under callgrind, fewer users: each PIN is hashed at valgrind's pace. */
const USERS = CALLGRIND ? 16 : 128;
const PIN = '1234';
const CONNECTIONS = [16, 64];

interface Side {
  label: string;
  tree: string;
  svc: Server;
  users: { token: string; userId: string; email: string }[];
  drop: () => Promise<void>;
}

/** A side: its service on a fresh database, its users signed in, funded (by its own ledger), tier 2 with a PIN. */
async function side(label: string, tree: string): Promise<Side> {
  const db = await freshDatabase('benchab');
  const env = { DATABASE_URL: db.url, SANDBOX: 'true', JOBS_ENABLED: 'false', NODE_ENV: 'development' };
  const svc = await startServer('bench/service-server.ts', env, profileArgs(), tree);
  const users: Side['users'] = [];
  for (let i = 0; i < USERS; i += 16)
    users.push(...(await Promise.all(Array.from({ length: 16 }, (_, j) => signInOver(svc.url, `ab${i + j}@example.com`)))));
  const own = (file: string) => import(path.resolve(tree, file));
  const { openDatabase } = await own('src/db/client.ts');
  const { createLedger } = await own('src/ledger/ledger.ts');
  const { systemClock } = await own('src/kernel/clock.ts');
  const database = await openDatabase({ url: db.url, dataDir: '/tmp' });
  const ledger = createLedger({ clock: systemClock });
  for (const [n, u] of users.entries()) {
    await database.db.transaction((tx: unknown) =>
      ledger.post(tx, {
        reference: `bench_fund_${u.userId}`,
        type: 'adjustment',
        description: 'benchmark funding',
        entries: [
          { account: { user: u.userId, kind: 'wallet' }, amount: 10_000_000n },
          { account: { system: 'adjustments' }, amount: -10_000_000n },
        ],
      }),
    );
    await database.db.execute(
      sql`UPDATE users SET username = ${`ab${n}`}, full_name = 'Ada Grace Obi', kyc_tier = 2 WHERE id = ${u.userId}`,
    );
    await database.db
      .execute(sql`INSERT INTO kyc_submissions (id, user_id, tier, status, files, verified_name, details, created_at, updated_at, reviewed_at)
        VALUES (${randomUUID()}, ${u.userId}, 2, 'approved', '[]'::jsonb, 'Ada Grace Obi', '{}'::jsonb, now(), now(), now())`);
  }
  await database.close();
  for (const u of users) await setPinOver(svc.url, u, PIN);
  const s: Side = { label, tree, svc, users, drop: db.drop };
  await cannon('warm-up', {
    url: svc.url,
    connections: 8,
    amount: USERS * 4,
    requests: [{ setupRequest: transferOf(s) }],
  } as autocannon.Options);
  return s;
}

/** A transfer between two random users of the side (as in `npm run bench`). */
const transferOf = (s: Side) => (req: any) => {
  const a = Math.floor(Math.random() * s.users.length);
  let target = Math.floor(Math.random() * s.users.length);
  if (target === a) target = (a + 1) % s.users.length;
  return {
    ...req,
    method: 'POST',
    path: '/_serverFn/transferWalletFnBearerWallet',
    headers: { authorization: `Bearer ${s.users[a].token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ data: { username: `ab${target}`, amount: 50, pin: PIN } }),
  };
};

const sides = [await side('this checkout', process.cwd()), await side(other, path.resolve(other))];
if (CALLGRIND) {
  await instructionRounds(sides);
  for (const s of sides) {
    await s.svc.stop();
    await s.drop();
  }
  process.exit(0);
}
const runs = new Map<string, Result[]>();
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of CONNECTIONS) {
      for (const s of round % 2 ? [...sides].reverse() : sides) {
        const start = monotonicUs();
        const r = await cannon(
          s.label,
          { url: s.svc.url, connections: c, requests: [{ setupRequest: transferOf(s) }] } as autocannon.Options,
          s.svc.child.pid,
        );
        recordWindow(`${s.label} c=${c} r${round + 1}`, s.svc.child.pid!, start, monotonicUs());
        if (r.errors) throw new Error(`${s.label}: ${r.errors} failed transfers at ${c} in flight`);
        runs.set(`${s.label} c=${c}`, [...(runs.get(`${s.label} c=${c}`) ?? []), r]);
        const cpu = r.cpu ? `${r.cpu.server?.toFixed(2)} + ${r.cpu.postgres?.toFixed(2)} ms` : '';
        console.log(`round ${round + 1} c=${c} ${s.label}: ${r.rps}/s p99 ${r.p99} ms ${cpu}`);
      }
    }
  }
  console.log('\n| transfers | in flight | this checkout req/s | other req/s | ratio of totals | rounds this/other ahead |');
  console.log('|---|---|---|---|---|---|');
  for (const c of CONNECTIONS) {
    const [a, b] = sides.map((s) => runs.get(`${s.label} c=${c}`)!);
    const sum = (rs: Result[]) => rs.reduce((t, r) => t + r.rps, 0);
    const ahead = a.filter((r, i) => r.rps >= b[i].rps).length;
    console.log(
      `| transferWalletFn | ${c} | ${Math.round(sum(a) / a.length)} | ${Math.round(sum(b) / b.length)} | ${Math.round((sum(a) / sum(b)) * 100)}% | ${ahead}/${a.length - ahead} |`,
    );
  }
  console.log(`(${other}; ${ROUNDS} rounds of ${process.env.BENCH_SECONDS ?? 5} s windows, interleaved, order swapped each round)`);
} finally {
  for (const s of sides) {
    await s.svc.stop();
    await s.drop();
  }
}

/**
 * BENCH_CALLGRIND=1: each round, each side runs AB_TRANSFERS transfers (400) at 4 in flight with callgrind counting,
 * then dumps; the figure is the server's instructions per transfer (JIT, GC and all), which other work on the machine
 * cannot move. What it leaves out: time in system calls and in PostgreSQL (the same statements on both sides here).
 */
async function instructionRounds(list: Side[]) {
  const { execFileSync } = await import('node:child_process');
  const fs = await import('node:fs');
  const n = Number(process.env.AB_TRANSFERS ?? 400);
  const per = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of round % 2 ? [...list].reverse() : list) {
      const pid = String(s.svc.child.pid);
      execFileSync('callgrind_control', ['-z', pid]);
      execFileSync('callgrind_control', ['-i', 'on', pid]);
      const r = await cannon(s.label, {
        url: s.svc.url,
        connections: 4,
        timeout: 300,
        amount: n,
        requests: [{ setupRequest: transferOf(s) }],
      } as autocannon.Options);
      execFileSync('callgrind_control', ['-i', 'off', pid]);
      const before = new Set(fs.readdirSync('/tmp').filter((f) => f.startsWith(`callgrind.${pid}`)));
      execFileSync('callgrind_control', ['-d', pid]);
      const dump = fs.readdirSync('/tmp').find((f) => f.startsWith(`callgrind.${pid}`) && !before.has(f));
      const text = dump ? fs.readFileSync(`/tmp/${dump}`, 'utf8') : '';
      const total = Number(/^totals: (\d+)/m.exec(text)?.[1] ?? NaN);
      if (r.errors) throw new Error(`${s.label}: ${r.errors} failed transfers`);
      per.set(s.label, [...(per.get(s.label) ?? []), total / (r.total ?? n)]);
      console.log(
        `round ${round + 1} ${s.label}: ${(total / (r.total ?? n) / 1e6).toFixed(2)} M instructions per transfer (${r.total ?? n})`,
      );
    }
  }
  const [a, b] = list.map((s) => per.get(s.label)!);
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  console.log(
    `\nmedian instructions per transfer: this ${(median(a) / 1e6).toFixed(2)} M, other ${(median(b) / 1e6).toFixed(2)} M (${Math.round((median(a) / median(b)) * 100)}%)`,
  );
}
