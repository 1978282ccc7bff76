import { createHash, randomUUID } from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import fs from 'node:fs';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../../src/config.js';
import { buildApp } from '../../src/services.js';
import type { ServiceOverrides } from '../../src/services.js';
import { checkCompiledSql, openDatabase, type Database } from '../../src/db/client.js';
import { TestClock } from '../../src/kernel/clock.js';
import { createLogger } from '../../src/lib/logger.js';
import { verifyLedger } from '../../src/ledger/verify.js';
import { toKobo } from '../../src/kernel/money.js';
import { assertNoLeaks, instrumentSecrets, type SecretStore } from './secrets.js';

/**
 * Builds the real app on a fresh database: PGlite in memory by default, a fresh PostgreSQL database when
 * TEST_DATABASE_URL is set (CI's second pass). Logs are captured so tests can scan them for secrets.
 */
export interface Harness {
  app: FastifyInstance;
  clock: TestClock;
  config: Config;
  database: Database;
  /** Test mode's world's own database (issue 45), once a test key built it; null before. */
  testWorldDatabase(): Database | null;
  logs: string[];
  /** Secrets this harness saw (test/helpers/secrets.ts); close() fails the file if any reached the logs. */
  secrets: SecretStore;
  close(): Promise<void>;
}

export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL);

// Every statement the suite runs through rows()/one() on PostgreSQL is built by compileSql and checked against drizzle's build.
checkCompiledSql(true);

async function freshPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = new URL(process.env.TEST_DATABASE_URL!);
  const name = `t_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  // A copy of the run's migrated template (test/helpers/global-setup.ts); migrations then find nothing to do.
  const template = inject('postgresTemplate');
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await c.end();
    },
  };
}

let image: Blob | null | undefined;
/** The run's migrated PGlite image (test/helpers/global-setup.ts), read once per worker; undefined without one. */
function pgliteImage(): Blob | undefined {
  if (image === undefined) {
    const file = inject('pgliteImagePath');
    image = file && fs.existsSync(file) ? new Blob([fs.readFileSync(file)]) : null;
  }
  return image ?? undefined;
}

/**
 * DNS for push endpoints in tests (the machine has no outside DNS): names under example.com resolve to a public
 * address (the real one of example.com), anything else does not resolve. Tests of the SSRF checks pass their own.
 */
export const testResolver = async (host: string) => {
  if (host === 'example.com' || host.endsWith('.example.com')) return [{ address: '93.184.215.14', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

/**
 * Rate-limit keys of one test deployment in the shared test Redis: harnesses on one database (instances of one
 * deployment) share them, every other harness has its own. Without it every test file and every run spent the same
 * per-address budgets, and a limit hit in one test refused requests of another.
 */
function redisPrefixOf(databaseUrl: string): string {
  if (databaseUrl === 'memory://') return `vtu-rl-test-${randomUUID()}:`;
  return `vtu-rl-test-${createHash('sha256').update(databaseUrl).digest('hex').slice(0, 24)}:`;
}

export async function createHarness(
  opts: { env?: Record<string, string>; clock?: TestClock; databaseUrl?: string; overrides?: ServiceOverrides } = {},
): Promise<Harness> {
  const clock = opts.clock ?? new TestClock();
  let drop = async () => {};
  let url = opts.databaseUrl ?? 'memory://';
  if (!opts.databaseUrl && usingPostgres) {
    const fresh = await freshPostgres();
    url = fresh.url;
    drop = fresh.drop;
  }
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: path.join(os.tmpdir(), `vtu-test-${randomUUID()}`),
    DATABASE_URL: url,
    ADMIN_EMAILS: 'admin@example.com',
    LOG_LEVEL: 'info',
    // The API alone; test/http/web-app.test.ts mounts a built app from its own directory.
    WEB_DIR: '',
    // Webhook admission control refuses while this process's event loop or its credits lag 150 ms: on a busy test
    // machine that is the load, not the test. The admission tests set their own (test/payments/webhook-batch.test.ts).
    WEBHOOK_BACKLOG_MAX_AGE_MS: '60000',
    ...(process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_KEY_PREFIX: redisPrefixOf(url) } : {}),
    ...opts.env,
  });
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(chunk.toString());
      // TEST_PRINT_ERRORS=1 shows unhandled errors (500s) while debugging.
      if (process.env.TEST_PRINT_ERRORS === '1' && chunk.toString().includes('"level":50')) process.stderr.write(chunk.toString());
      cb();
    },
  });
  // 30 unless the test sets DATABASE_POOL_SIZE (the multi-process tests do: with their child servers they must stay
  // under PostgreSQL's 100 connections next to another test file, see test/multi/helpers.ts).
  const poolSize = opts.env?.DATABASE_POOL_SIZE ? config.databasePoolSize : 30;
  const database = await openDatabase({
    url,
    dataDir: config.dataDir,
    poolSize,
    preparedStatements: config.databasePreparedStatements,
    ...(url === 'memory://' ? { pgliteImage: pgliteImage() } : {}),
  });
  let testWorldDatabase: Database | null = null;
  const app = await buildApp({
    config,
    database,
    clock,
    log: createLogger({ level: 'info', stream }),
    overrides: { resolver: testResolver, ...opts.overrides },
    // Test mode's world (issue 45), built only when a test key is used: in memory, from the migrated image.
    testWorld: {
      database: async () =>
        (testWorldDatabase = await openDatabase({ url: 'memory://', dataDir: `${config.dataDir}-test-mode`, pgliteImage: pgliteImage() })),
    },
  });
  await app.ready();
  const secrets: SecretStore = new Map();
  instrumentSecrets(app, secrets);
  return {
    app,
    clock,
    config,
    database,
    testWorldDatabase: () => testWorldDatabase,
    logs,
    secrets,
    close: async () => {
      await app.close();
      await database.close();
      await drop();
      assertNoLeaks(secrets, logs);
    },
  };
}

/** A TCP port nothing listens on right now (for a server a test starts). */
export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/**
 * The real app listening on a free loopback port, PUBLIC_URL pointing at it: adapters, simulators, webhooks and
 * clients all travel over real HTTP.
 */
export async function listeningHarness(opts: Parameters<typeof createHarness>[0] = {}): Promise<Harness & { base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const h = await createHarness({ ...opts, env: { ...opts.env, PUBLIC_URL: base } });
  await h.app.listen({ port, host: '127.0.0.1' });
  return Object.assign(h, { base });
}

export interface TestUser {
  id: string;
  email: string;
  token: string;
  refreshToken: string;
  sessionId: string;
}

/** Signs a user in through the real e-mail OTP flow, reading the code from the sandbox mailbox. */
/**
 * The device cookie each account's last signIn was given, per harness: signIn signs in again from the same device
 * (a known device, issue 28), so a customer with two-factor on is not asked for the second factor (issue 43).
 */
const deviceCookies = new WeakMap<Harness, Map<string, string>>();

export async function signIn(h: Harness, email = `u${randomUUID().slice(0, 8)}@example.com`): Promise<TestUser> {
  const send = await call(h, 'POST', '/_serverFn/sendLoginOtpPublicAuth', { email });
  if (send.statusCode !== 200) throw new Error(`sendLoginOtp failed: ${send.body}`);
  const code = await lastCode(h, email);
  const cookies = deviceCookies.get(h) ?? new Map<string, string>();
  deviceCookies.set(h, cookies);
  const known = cookies.get(email);
  const res = await call(h, 'POST', '/_serverFn/verifyLoginOtpPublicAuth', { email, code }, { headers: known ? { cookie: known } : {} });
  if (res.statusCode !== 200) throw new Error(`verifyLoginOtp failed: ${res.body}`);
  const set = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('vtu_device='));
  if (set) cookies.set(email, set.split(';')[0]);
  const s = res.json().session;
  const claims = JSON.parse(Buffer.from(s.accessToken.split('.')[1], 'base64url').toString());
  return { id: s.user.id, email, token: s.accessToken, refreshToken: s.refreshToken, sessionId: claims.sid };
}

/**
 * Gives operators their roles as adminGrantRole records them (an operator_roles row each, granted by `by` when named),
 * without its step-up and audit, for tests about what a role may do; their cached sessions are dropped.
 */
export async function grantRoles(h: Harness, grants: [TestUser, string][], by?: TestUser): Promise<void> {
  for (const [who, role] of grants) {
    await h.app.services.db.execute(
      sql`INSERT INTO operator_roles (user_id, role, granted_by, granted_at) VALUES (${who.id}, ${role}, ${by?.id ?? null}, ${h.clock.now()})`,
    );
    h.app.services.identity.forgetUser(who.id);
  }
}

/** The headers that present the device an account last signed in from with signIn (its device cookie), if any. */
export function knownDevice(h: Harness, email: string): Record<string, string> {
  const cookie = deviceCookies.get(h)?.get(email);
  return cookie ? { cookie } : {};
}

/**
 * Issue 43: the sign-in's second step for a session that answered secondFactorRequired; the device becomes the
 * account's known device, which signIn presents from then on.
 */
export async function completeSignIn(h: Harness, u: TestUser, code: string) {
  const res = await call(h, 'POST', '/_serverFn/completeSignInBearerAuth', { code }, { token: u.token, headers: knownDevice(h, u.email) });
  if (res.statusCode !== 200) throw new Error(`completeSignIn failed: ${res.body}`);
  const set = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('vtu_device='));
  const cookies = deviceCookies.get(h) ?? new Map<string, string>();
  deviceCookies.set(h, cookies);
  if (set) cookies.set(u.email, set.split(';')[0]);
  return res.json();
}

export async function lastCode(h: Harness, to: string, channel: 'mailbox' | 'sms' = 'mailbox'): Promise<string> {
  const box = await h.app.inject({ method: 'GET', url: `/sandbox/${channel}?to=${encodeURIComponent(to)}` });
  // Outside the sandbox (SANDBOX=false without SMTP_URL) the same rows are captured but no page shows them.
  const item =
    box.statusCode === 404
      ? (
          await h.app.services.db.execute<{ text: string }>(
            sql`SELECT text FROM sandbox_messages WHERE channel = ${channel === 'mailbox' ? 'email' : 'sms'} AND "to" = ${to.toLowerCase()} ORDER BY id DESC LIMIT 1`,
          )
        ).rows[0]
      : box.json().items[0];
  if (!item) throw new Error(`no message to ${to}`);
  const m = /(\d{6})/.exec(item.text);
  if (!m) throw new Error(`no code in ${item.text}`);
  return m[1];
}

/**
 * A step-up grant for credential changes, through the real flow: an e-mailed code, then
 * verifyStepupChallenge. Returns the X-Grant-Token header to send.
 */
export async function emailGrant(h: Harness, user: TestUser): Promise<Record<string, string>> {
  const send = await call(h, 'POST', '/_serverFn/sendStepupEmailCodeBearer2FA', {}, { token: user.token });
  if (send.statusCode !== 200) throw new Error(`sendStepupEmailCode failed: ${send.body}`);
  const code = await lastCode(h, user.email);
  const res = await call(h, 'POST', '/_serverFn/verifyStepupChallengeBearer2FA', { totpCode: code }, { token: user.token });
  if (res.statusCode !== 200) throw new Error(`verifyStepupChallenge failed: ${res.body}`);
  return { 'x-grant-token': res.json().grantToken };
}

/** Calls an operation: POST inputs go in the {data} envelope, GET inputs in the query string. */
export function call(
  h: Harness,
  method: 'GET' | 'POST',
  url: string,
  input?: Record<string, unknown>,
  opts: { token?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (method === 'GET') {
    const qs = input ? '?' + new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)])).toString() : '';
    return h.app.inject({ method, url: url + qs, headers });
  }
  return h.app.inject({ method, url, headers, payload: input === undefined ? undefined : { data: input } });
}

/** Credits a wallet through the ledger as an operator adjustment would (test factory). */
export async function fundWallet(h: Harness, userId: string, naira: number) {
  const { ledger, db } = h.app.services;
  await db.transaction(async (tx) => {
    await ledger.post(tx, {
      reference: `test_fund_${randomUUID()}`,
      type: 'adjustment',
      description: 'test funding',
      entries: [
        { account: { user: userId, kind: 'wallet' }, amount: toKobo(naira) },
        { account: { system: 'adjustments' }, amount: -toKobo(naira) },
      ],
    });
  });
}

export async function expectLedgerOk(h: Harness) {
  const report = await verifyLedger(h.app.services.db);
  if (report.breaches.length) throw new Error(`ledger breaches: ${JSON.stringify(report.breaches)}`);
}
