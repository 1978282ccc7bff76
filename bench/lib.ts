import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { CORES, ceiling, cpuCost, cpuSnapshot, type CpuCost } from './cpu.js';

export const BASE_DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const DURATION = Number(process.env.BENCH_SECONDS ?? 5);

/** A fresh database on the benchmark PostgreSQL server; dropped by the returned function. */
export async function freshDatabase(prefix = 'bench'): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: BASE_DB_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(BASE_DB_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: BASE_DB_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface Server {
  url: string;
  child: ChildProcess;
  peakRssMb: () => number;
  /** Database round trips the server has made so far (exact: asks the child and waits for its answer). */
  queries: () => Promise<number>;
  /** Statements the server had sent at the last answer of queries() (BEGIN and COMMIT included). */
  statements: () => number;
  stop: () => Promise<void>;
}

/**
 * The V8 flags the service starts with (package.json start:prod, scripts/start.mjs, the Dockerfile): young generation
 * capped at 16 MB a semi-space, as on Node 20 (Node 24 grows it to 64 MB), and the old generation collected once it
 * is 30 % over what the last full GC kept (docs/scaling.md, "Memory"). BENCH_NODE_ARGS replaces them (an empty
 * value: V8's defaults).
 */
export const SERVER_NODE_FLAGS = (process.env.BENCH_NODE_ARGS ?? '--max-semi-space-size=16 --heap-growing-percent=30')
  .split(' ')
  .filter(Boolean);

/**
 * Starts a server script in a child process and waits until it prints its port. The server runs as compiled
 * JavaScript from dist-bench/ (`npm run bench` builds it first), as `npm start` runs dist/: no TypeScript loader in
 * the measured process. BENCH_TSX=1 runs the .ts source under tsx instead.
 */
export async function startServer(
  script: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
  /** Another checkout whose own build to run (bench/ab.ts); this one by default. */
  cwd = process.cwd(),
): Promise<Server> {
  const compiled = path.join(cwd, 'dist-bench', script.replace(/\.ts$/, '.js'));
  const useTsx = process.env.BENCH_TSX === '1' || !fs.existsSync(compiled);
  const flags = [...SERVER_NODE_FLAGS, ...nodeArgs];
  const args = useTsx ? [...flags, '--import', 'tsx', script] : [...flags, compiled];
  // Two malloc arenas, as the service's start scripts and the Dockerfile set (docs/scaling.md, "Memory").
  // BENCH_CALLGRIND=1 (bench/ab.ts): the server under valgrind's callgrind, counting nothing until told
  // (callgrind_control -i on), so a window's instructions can be read: a figure the machine's other work cannot move.
  const [command, argv] = process.env.BENCH_CALLGRIND
    ? ['valgrind', ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=/tmp/callgrind.%p`, process.execPath, ...args]]
    : [process.execPath, args];
  const child = spawn(command, argv, {
    cwd,
    env: { MALLOC_ARENA_MAX: '2', ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let peak = 0;
  let queries = 0;
  let statements = 0;
  let waiters: ((n: number) => void)[] = [];
  let buf = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start`)), process.env.BENCH_CALLGRIND ? 900_000 : 120_000);
    child.stdout!.on('data', (d) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const line of lines) {
        // Errors the server logs (pino level 50 and up) are shown, so a failed run says why.
        if (/"level":(5|6)\d/.test(line)) process.stderr.write(`[${script}] ${line}\n`);
        const m = /LISTENING (\S+)/.exec(line);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
        const r = /RSS (\d+)(?: QUERIES (\d+))?(?: STATEMENTS (\d+))?/.exec(line);
        if (r) {
          peak = Math.max(peak, Number(r[1]));
          if (r[2]) {
            queries = Number(r[2]);
            statements = Number(r[3] ?? 0);
            const w = waiters;
            waiters = [];
            for (const f of w) f(queries);
          }
        }
      }
    });
    child.on('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
  return {
    url,
    child,
    peakRssMb: () => peak,
    statements: () => statements,
    queries: () =>
      new Promise<number>((resolve) => {
        waiters.push(resolve);
        child.stdin!.write('STATS?\n');
      }),
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

export interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Requests completed in the run (for round trips per request). */
  total?: number;
  connections?: number;
  /** Database round trips per request, when measured. */
  roundTrips?: number;
  /** Database statements per request (BEGIN and COMMIT included), when measured. */
  statements?: number;
  ratio?: string;
  /** Whether the issue's target for this row is met (undefined: no target). */
  met?: boolean;
  /** CPU milliseconds per request on this machine (bench/cpu.ts). */
  cpu?: CpuCost;
  /** The server whose CPU is `cpu.server` is this bench process (the in-process baselines). */
  cpuInBench?: boolean;
}

/** An autocannon run; with the server's pid, the CPU it and PostgreSQL spent per request (bench/cpu.ts). */
export async function cannon(name: string, opts: autocannon.Options, serverPid?: number): Promise<Result> {
  const before = cpuSnapshot(serverPid);
  const r = await autocannon({ duration: DURATION, connections: 32, ...opts });
  const cpu = serverPid === undefined ? undefined : cpuCost(before, cpuSnapshot(serverPid), r.requests.total);
  const non2xx = r.non2xx + r.errors + r.timeouts;
  return {
    name,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: non2xx,
    total: r.requests.total,
    connections: opts.connections ?? 32,
    cpu,
  };
}

/**
 * A cannon run against a bench server, with the server's database round trips per request. With BENCH_CPU_PROF the
 * run's window is recorded under `profileLabel` (bench/profile-summary.ts --window).
 */
export async function measured(server: Server, name: string, opts: autocannon.Options, profileLabel?: string): Promise<Result> {
  const before = await server.queries();
  const statementsBefore = server.statements();
  const start = monotonicUs();
  const r = await cannon(name, opts, server.child.pid);
  if (profileLabel) recordWindow(profileLabel, server.child.pid!, start, monotonicUs());
  const after = await server.queries();
  const per = (n: number) => (r.total ? Math.round((n / r.total) * 10) / 10 : undefined);
  return { ...r, roundTrips: per(after - before), statements: per(server.statements() - statementsBefore) };
}

/** CPU profiles of the bench servers (BENCH_CPU_PROF=1): where they go, and the node flags that write them. */
export const PROFILE_DIR = 'bench/profiles';
export const profileArgs = () => (process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []);
/** Microseconds on the monotonic clock V8's profiler stamps its samples with (CLOCK_MONOTONIC on Linux). */
export const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
/** Appends a measured run's window to bench/profiles/windows.json, when profiles are written. */
export function recordWindow(label: string, pid: number, start: number, end: number) {
  if (!process.env.BENCH_CPU_PROF) return;
  const file = path.join(PROFILE_DIR, 'windows.json');
  fs.mkdirSync(PROFILE_DIR, { recursive: true });
  const windows = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as unknown[]) : [];
  fs.writeFileSync(file, JSON.stringify([...windows, { label, pid, start, end }], null, 1));
}

const ms = (v: number | null | undefined) => (v === null || v === undefined ? '?' : v.toFixed(v < 0.1 ? 3 : 2));

/** "server + PostgreSQL (load generator)" CPU ms per request. */
function cpuCell(r: Result): string {
  if (!r.cpu) return '';
  const server = r.cpuInBench ? r.cpu.bench : r.cpu.server;
  return `${ms(server)} + ${ms(r.cpu.postgres)}${r.cpuInBench ? '' : ` (${ms(r.cpu.bench)})`}`;
}

export function table(rows: Result[]) {
  console.log(
    `\n| benchmark | conns | req/s | p50 ms | p99 ms | non-2xx/errors | db round trips/req | CPU ms/req: server + PostgreSQL (load generator) | ceiling req/s on ${CORES} cores | ratio / target | met |`,
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const met = r.met === undefined ? '' : r.met ? 'yes' : 'NO';
    console.log(
      `| ${r.name} | ${r.connections ?? ''} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.roundTrips ?? ''}${r.statements ? ` (${r.statements} statements)` : ''} | ${cpuCell(r)} | ${ceiling(r.cpu, r.cpuInBench) ?? ''} | ${r.ratio ?? ''} | ${met} |`,
    );
  }
}

export async function json(url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as any;
}

/** Signs a user in through the sandbox OTP flow of a running server. */
/**
 * Sets the first transaction PIN as a person would: a credential change needs a step-up grant, so this
 * asks for an e-mailed code, reads it from the sandbox mailbox and sends the grant with the PIN.
 */
export async function setPinOver(base: string, user: { token: string; email: string }, pin: string): Promise<void> {
  const auth = { authorization: `Bearer ${user.token}` };
  const sent = await json(`${base}/_serverFn/sendStepupEmailCodeBearer2FA`, { data: {} }, auth);
  if (!sent.ok) throw new Error(`sendStepupEmailCode: ${JSON.stringify(sent)}`);
  const box = await json(`${base}/sandbox/mailbox?to=${encodeURIComponent(user.email)}`);
  const code = /(\d{6})/.exec(box.items[0].text)![1];
  const grant = await json(`${base}/_serverFn/verifyStepupChallengeBearer2FA`, { data: { totpCode: code } }, auth);
  if (!grant.ok) throw new Error(`verifyStepupChallenge: ${JSON.stringify(grant)}`);
  const r = await json(
    `${base}/_serverFn/setTransactionPinFnBearerSettings`,
    { data: { pin } },
    { ...auth, 'x-grant-token': grant.grantToken },
  );
  if (!r.ok) throw new Error(`setTransactionPinFn: ${JSON.stringify(r)}`);
}

export async function signInOver(base: string, email: string): Promise<{ token: string; userId: string; email: string }> {
  await json(`${base}/_serverFn/sendLoginOtpPublicAuth`, { data: { email } });
  const box = await json(`${base}/sandbox/mailbox?to=${encodeURIComponent(email)}`);
  const code = /(\d{6})/.exec(box.items[0].text)![1];
  const v = await json(`${base}/_serverFn/verifyLoginOtpPublicAuth`, { data: { email, code } });
  return { token: v.session.accessToken, userId: v.session.user.id, email };
}
