import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';

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

/** Starts a server script in a child process and waits until it prints its port. */
export async function startServer(script: string, env: Record<string, string>): Promise<{ url: string; child: ChildProcess; peakRssMb: () => number; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let peak = 0;
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`${script} did not start`)), 60_000);
    child.stdout!.on('data', (d) => {
      buf += d.toString();
      for (const line of buf.split('\n')) {
        const m = /LISTENING (\S+)/.exec(line);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
        const r = /RSS (\d+)/.exec(line);
        if (r) peak = Math.max(peak, Number(r[1]));
      }
      buf = buf.slice(buf.lastIndexOf('\n') + 1);
    });
    child.on('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
  child.stdout!.on('data', (d) => {
    for (const m of d.toString().matchAll(/RSS (\d+)/g)) peak = Math.max(peak, Number(m[1]));
  });
  return {
    url,
    child,
    peakRssMb: () => peak,
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
}

export async function cannon(name: string, opts: autocannon.Options): Promise<Result> {
  const r = await autocannon({ duration: DURATION, connections: 32, ...opts });
  const non2xx = r.non2xx + r.errors + r.timeouts;
  return { name, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: non2xx };
}

export function table(rows: (Result & { ratio?: string })[]) {
  console.log('\n| benchmark | req/s | p50 ms | p99 ms | non-2xx/errors | ratio |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.ratio ?? ''} |`);
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
export async function signInOver(base: string, email: string): Promise<{ token: string; userId: string }> {
  await json(`${base}/_serverFn/sendLoginOtpPublicAuth`, { data: { email } });
  const box = await json(`${base}/sandbox/mailbox?to=${encodeURIComponent(email)}`);
  const code = /(\d{6})/.exec(box.items[0].text)![1];
  const v = await json(`${base}/_serverFn/verifyLoginOtpPublicAuth`, { data: { email, code } });
  return { token: v.session.accessToken, userId: v.session.user.id };
}
