import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../src/db/client.js';
import { verifyLedger } from '../../src/ledger/verify.js';
import { signProcessorPayload } from '../../src/providers/processor.js';
import { TestClock } from '../../src/kernel/clock.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { chargeSuccess, PROCESSOR_SECRET, WEBHOOK } from '../helpers/factories.js';

/**
 * Real server processes for the multi-instance and crash tests. Each child runs test/multi/server.ts
 * on the harness's PostgreSQL database and DATA_DIR (so the harness's signing keys, and the tokens it issues,
 * are the children's too). Every child started here is SIGKILLed by killAll() (afterAll) and, as a backstop,
 * when the test process exits: no orphan survives a failed test.
 */
export const SKIP_REASON =
  'needs TEST_DATABASE_URL (PostgreSQL): several server processes must share one database server; embedded PGlite lives inside one process';

/** One signing key for the harness and every child, so a token the harness issues is valid on all of them. */
const AUTH_PRIVATE_KEY = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;

/**
 * The test's own instance on a fresh PostgreSQL database: it seeds users and money, reads the database and,
 * after a crash, acts as a restarted instance whose clock can be moved. Its clock starts at "now" so the
 * tokens it issues are valid on the children, which run on the real clock.
 */
export function multiHarness(env: Record<string, string> = {}): Promise<Harness> {
  return createHarness({ clock: new TestClock(new Date()), env: { ...CHILD_ENV, LOG_LEVEL: 'info', AUTH_PRIVATE_KEY, ...env } });
}

const SERVER = path.join(import.meta.dirname, 'server.ts');
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});

export interface ServerProcess {
  url: string;
  name: string;
  child: ChildProcess;
  /** Resolves when the process has exited, with its exit code or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** stdout and stderr so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/** Sandbox settings shared by every child: short provider timeouts, reconciliation every second. */
export const CHILD_ENV = {
  NODE_ENV: 'test',
  SANDBOX: 'true',
  LOG_LEVEL: 'warn',
  ADMIN_EMAILS: 'admin@example.com',
  VTU_PROVIDER_TIMEOUT_MS: '1000',
  VTU_RECONCILE_EVERY_MS: '1000',
  VTU_NOT_FOUND_GRACE_MS: '0',
  VTU_SANDBOX_HOLD_MS: '2000',
  VTU_SANDBOX_SLOW_MS: '100',
  RATE_LIMIT_PER_MINUTE: '100000',
  // Webhook admission control: a busy test machine's event-loop lag must not refuse the tests' webhooks.
  WEBHOOK_BACKLOG_MAX_AGE_MS: '60000',
  // Two files run side by side (vitest maxWorkers 2): this file's instance and its children, plus another file's
  // pool of 30, stay well under PostgreSQL's default max_connections (100). Pools wait; they never fail a request.
  DATABASE_POOL_SIZE: '10',
};

export async function startServer(h: Harness, name: string, env: Record<string, string> = {}, startMs = 60_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: {
      ...process.env,
      ...CHILD_ENV,
      DATABASE_URL: h.config.databaseUrl!,
      DATA_DIR: h.config.dataDir,
      AUTH_PRIVATE_KEY,
      ...(process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let out = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    }),
  );
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${startMs} ms:\n${out}`)), startMs);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /LISTENING (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    void exited.then((e) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited before listening (${e.code ?? e.signal}):\n${out}`));
    });
  });
  return {
    url,
    name,
    child,
    exited,
    output: () => out,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    },
  };
}

export async function killAll(): Promise<void> {
  const waits = [...live].map((c) => new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r(null) : c.once('exit', r))));
  for (const c of live) c.kill('SIGKILL');
  await Promise.all(waits);
}

export interface HttpAnswer {
  status: number;
  body: any;
}

/** One operation over real HTTP: POST inputs in the {data} envelope, GET inputs in the query string. */
export async function api(
  base: string,
  method: 'GET' | 'POST',
  route: string,
  input?: Record<string, unknown>,
  opts: { token?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let url = base + route;
  let body: string | undefined;
  if (method === 'GET') {
    if (input) url += '?' + new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)])).toString();
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify({ data: input ?? {} });
  }
  const res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed };
}

/** Like api() but a dropped connection (the server died mid-request) is an answer of status 0. */
export async function apiOrDrop(...args: Parameters<typeof api>): Promise<HttpAnswer> {
  try {
    return await api(...args);
  } catch (err) {
    return { status: 0, body: String((err as Error).cause ?? err) };
  }
}

export { chargeSuccess, PROCESSOR_SECRET, WEBHOOK };

export async function postWebhook(base: string, body: string): Promise<number> {
  const res = await fetch(base + WEBHOOK, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-processor-signature': signProcessorPayload(PROCESSOR_SECRET, body) },
    body,
    signal: AbortSignal.timeout(30_000),
  });
  await res.arrayBuffer();
  return res.status;
}

export async function waitFor<T>(what: string, fn: () => Promise<T | undefined | null | false>, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function walletKobo(exec: Executor, userId: string): Promise<bigint> {
  const r = await rows<{ b: string }>(
    exec,
    sql`SELECT COALESCE((SELECT balance FROM accounts WHERE code = ${`user:${userId}:wallet`}), 0)::text AS b`,
  );
  return BigInt(r[0].b);
}

export async function ledgerBreaches(exec: Executor) {
  return (await verifyLedger(exec)).breaches;
}

/** Request ids the VTU simulators delivered more than once (must always be empty). */
export async function doubleDeliveries(exec: Executor): Promise<string[]> {
  const r = await rows<{ request_id: string }>(
    exec,
    sql`SELECT request_id FROM sandbox_vtu_orders WHERE status = 'delivered' GROUP BY request_id HAVING count(*) > 1`,
  );
  return r.map((x) => x.request_id);
}

/** A phone on MTN whose last four digits are no sandbox magic ending: the simulators deliver at once. */
export const plainMtn = () =>
  `0803${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}${String(1200 + Math.floor(Math.random() * 90)).padStart(4, '0')}`;

export const uniqueEmail = (prefix: string) => `${prefix}${randomUUID().slice(0, 8)}@example.com`;

/** The sandbox processor's control endpoint: the customer pays; the simulator then posts charge.success to its instance. */
export async function sandboxPay(base: string, reference: string): Promise<HttpAnswer> {
  try {
    const res = await fetch(`${base}/sandbox/processor/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reference, outcome: 'success' }),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  } catch (err) {
    return { status: 0, body: String((err as Error).cause ?? err) };
  }
}

/** Resolves with how the process ended; fails the test if it is still alive after ms. */
export async function exitOf(p: ServerProcess, ms = 30_000) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${p.name} did not die within ${ms} ms:\n${p.output()}`)), ms);
  });
  try {
    return await Promise.race([p.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
