// `npm run prod:check` (after `npm run build`): proves the production install. Copies the built output with
// package.json and the lockfile into a temporary directory, installs production dependencies only
// (`npm ci --omit=dev`), then starts `node dist/main.js` with NODE_ENV=production and freshly generated secrets
// against a new database on PROD_CHECK_DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/postgres).
// It must answer /readyz 200, serve the app, keep the sandbox and /metrics closed, stop cleanly on SIGTERM, and
// refuse to start (exit 78, naming the setting) when a required setting is missing or a secret has its public
// sandbox value. Exits 1 on any failure.
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import pg from 'pg';
import webpush from 'web-push';

const root = process.cwd();
const baseUrl = process.env.PROD_CHECK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `prod_check_${Date.now()}_${process.pid}`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vtu-prod-'));
const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
};

async function admin(statement) {
  const c = new pg.Client({ connectionString: baseUrl });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Every setting production requires, generated the way docs/operations.md tells an operator to. */
function productionEnv(port, databaseUrl) {
  const pem = () => crypto.generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' });
  const secret = () => crypto.randomBytes(32).toString('base64url');
  const vapid = webpush.generateVAPIDKeys();
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? os.homedir(),
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    DATA_DIR: path.join(dir, 'data'),
    DATABASE_URL: databaseUrl,
    MALLOC_ARENA_MAX: '2',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    PIN_PEPPER: secret(),
    DATA_ENCRYPTION_KEY: secret(),
    FILE_SIGNING_SECRET: secret(),
    METRICS_TOKEN: secret(),
    AUTH_PRIVATE_KEY: pem(),
    RECEIPT_SIGNING_KEY: pem(),
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: 'mailto:ops@example.com',
    PROCESSOR_SECRET_KEY: `sk_live_${secret()}`,
    PROCESSOR_BASE_URL: 'https://api.processor.example',
    SMTP_URL: 'smtp://mail.example:587',
    SMS_PROVIDER: 'termii',
    SMS_API_KEY: secret(),
    SMS_SENDER_ID: 'VTUWallet',
    IDENTITY_BASE_URL: 'https://identity.example',
    IDENTITY_API_KEY: secret(),
    VTU_PROVIDER_A_URL: 'https://a.vtu.example',
    VTU_PROVIDER_A_KEY: secret(),
    VTU_PROVIDER_B_URL: 'https://b.vtu.example',
    VTU_PROVIDER_B_KEY: secret(),
    VTU_PROVIDER_C_URL: 'https://c.vtu.example',
    VTU_PROVIDER_C_KEY: secret(),
    VTU_PROVIDER_C_SECRET: secret(),
    VTU_PROVIDER_D_URL: 'https://d.vtu.example',
    VTU_PROVIDER_D_KEY: secret(),
  };
}

/** Starts the installed service; resolves with its exit code and output once it exits. */
function start(env) {
  const child = spawn(process.execPath, ['--max-semi-space-size=16', '--heap-growing-percent=30', 'dist/main.js'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, output: () => output })));
  return { child, exited, output: () => output };
}

async function waitReady(url, exited) {
  const deadline = Date.now() + 90_000;
  let stopped = false;
  void exited.then(() => (stopped = true));
  while (Date.now() < deadline && !stopped) {
    try {
      const r = await fetch(`${url}/readyz`);
      if (r.status === 200) return true;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

try {
  if (!fs.existsSync(path.join(root, 'dist/main.js'))) throw new Error('dist/main.js is missing: run `npm run build` first');
  console.log(`== production install in ${dir}`);
  fs.cpSync(path.join(root, 'dist'), path.join(dir, 'dist'), { recursive: true });
  for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(root, f), path.join(dir, f));
  execFileSync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    stdio: 'inherit',
  });
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const presentDev = Object.keys(pkg.devDependencies ?? {}).filter(
    (d) => !d.startsWith('@types/') && fs.existsSync(path.join(dir, 'node_modules', d)),
  );
  check(presentDev.length === 0, `no devDependency installed${presentDev.length ? ` (found ${presentDev.join(', ')})` : ''}`);

  await admin(`CREATE DATABASE ${dbName}`);
  const dbUrl = new URL(baseUrl);
  dbUrl.pathname = `/${dbName}`;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = productionEnv(port, dbUrl.toString());

  console.log('== start with NODE_ENV=production');
  const svc = start(env);
  const ready = await waitReady(url, svc.exited);
  check(ready, '/readyz answers 200 (migrations applied on a fresh database)');
  if (ready) {
    const home = await fetch(`${url}/`, { headers: { accept: 'text/html' } });
    check(home.status === 200 && (home.headers.get('content-type') ?? '').includes('text/html'), 'the web app is served at /');
    check(
      (home.headers.get('content-security-policy') ?? '').includes("script-src 'self'"),
      'the app page carries its Content-Security-Policy',
    );
    check((await fetch(`${url}/sandbox/mailbox?email=a@b.co`)).status === 404, 'the sandbox is not served');
    check((await fetch(`${url}/metrics`)).status === 401, '/metrics refuses a request without METRICS_TOKEN');
    const metrics = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${env.METRICS_TOKEN}` } });
    check(metrics.status === 200, '/metrics answers with the bearer token');
    const otp = await fetch(`${url}/_serverFn/getOtpCooldownPublicAuth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { email: 'a@example.com' } }),
    });
    check(otp.status === 200, 'a public operation answers');
  }
  svc.child.kill('SIGTERM');
  const stop = await Promise.race([svc.exited, new Promise((r) => setTimeout(() => r(null), 20_000))]);
  check(stop !== null && stop.code === 0, 'SIGTERM stops it cleanly (exit 0)');
  if (stop === null) svc.child.kill('SIGKILL');
  if (failures.length) console.log(svc.output().slice(-4000));

  console.log('== refuses to start when a required setting is missing or a secret has its public sandbox value');
  const refusals = [
    ...['PIN_PEPPER', 'DATABASE_URL', 'SMS_API_KEY'].map((name) => [name, undefined, `without ${name}`]),
    ['VTU_PROVIDER_C_SECRET', 'sandbox-secret-c', 'with the sandbox VTU_PROVIDER_C_SECRET'],
  ];
  for (const [name, value, what] of refusals) {
    const { [name]: _, ...partial } = env;
    const r = start(value === undefined ? partial : { ...partial, [name]: value });
    const res = await Promise.race([r.exited, new Promise((res) => setTimeout(() => res(null), 30_000))]);
    if (res === null) r.child.kill('SIGKILL');
    check(res !== null && res.code === 78 && res.output().includes(name), `${what}: exit 78 naming it`);
  }
} catch (err) {
  failures.push(String(err));
  console.error(err);
} finally {
  await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
  fs.rmSync(dir, { recursive: true, force: true });
}
if (failures.length) {
  console.error(`production check failed: ${failures.length} problem(s)`);
  process.exit(1);
}
console.log('production check passed');
