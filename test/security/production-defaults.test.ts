import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import webpush from 'web-push';
import { ConfigError, loadConfig } from '../../src/config.js';
import { PUBLIC_VALUES, SECRETS, type SecretName, type SecretRule } from '../../src/config-production.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { buildApp } from '../../src/services.js';
import { TestClock } from '../../src/kernel/clock.js';
import { createLogger } from '../../src/lib/logger.js';
import type { OutboundEmail } from '../../src/providers/messaging.js';
import { testResolver } from '../helpers/harness.js';
import { PRODUCTION } from '../helpers/production-env.js';

// Issue 41: production refuses a secret that is unset, too short, not a key, or a value published in the source (the
// sandbox fallbacks) or a store's documentation, naming the setting; OPERATOR_2FA=optional starts, but says so.
const ROOT = path.join(import.meta.dirname, '..', '..');

/** The settings that make a secret needed: the S3 secret is read only with the s3 driver and an access key id. */
const NEEDS: Partial<Record<SecretName, Record<string, string>>> = {
  S3_SECRET_ACCESS_KEY: { STORAGE_DRIVER: 's3', S3_BUCKET: 'kyc', S3_ACCESS_KEY_ID: 'AKIAPRODUCTIONTEST01' },
};
const VALID: Partial<Record<SecretName, string>> = { S3_SECRET_ACCESS_KEY: 's3-secret-access-key-for-tests-0123456789' };
/** Unset turns the feature off (no delivery-report route), so production may leave it unset. */
const OPTIONAL = new Set<SecretName>(['SMS_WEBHOOK_SECRET']);
const NAMES = Object.keys(SECRETS) as SecretName[];

/** The problems a refused configuration lists, one per line, or [] when it loads. */
function refusals(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message
      .split('\n')
      .slice(1)
      .map((line) => line.replace(/^\s+(- )?/, ''));
  }
}

function envWith(name: SecretName, value: string | undefined): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...PRODUCTION, ...NEEDS[name], [name]: VALID[name] ?? PRODUCTION[name] };
  if (value === undefined) delete env[name];
  else env[name] = value;
  return env;
}

/** A value one character short of the minimum (not all one character), or not a key at all. */
function tooShort(name: SecretName): string {
  const rule: SecretRule = SECRETS[name];
  return rule.min ? 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(2).slice(0, rule.min - 1) : 'not-a-key-but-long-enough-0123456789';
}

function expectRefusedFor(name: SecretName, value: string | undefined) {
  const problems = refusals(envWith(name, value));
  expect(problems, `${name}=${value}`).toHaveLength(1);
  expect(problems[0], `${name}=${value}`).toMatch(new RegExp(`^${name}\\b`));
  // The refusal names the setting, never echoes the value.
  if (value && value.length > 3) expect(problems[0]).not.toContain(value);
}

describe('production refuses unset, short and public secrets (issue 41)', () => {
  it('the production base loads, with the S3 secret too; every secret is in the walk below', () => {
    expect(refusals(PRODUCTION)).toEqual([]);
    for (const name of NAMES) expect(refusals(envWith(name, VALID[name] ?? PRODUCTION[name])), name).toEqual([]);
    expect(NAMES).toEqual(
      expect.arrayContaining([
        'PIN_PEPPER',
        'DATA_ENCRYPTION_KEY',
        'FILE_SIGNING_SECRET',
        'PROCESSOR_SECRET_KEY',
        'VTU_PROVIDER_A_KEY',
        'VTU_PROVIDER_B_KEY',
        'VTU_PROVIDER_C_KEY',
        'VTU_PROVIDER_C_SECRET',
        'VTU_PROVIDER_D_KEY',
        'SMS_API_KEY',
        'SMS_WEBHOOK_SECRET',
        'METRICS_TOKEN',
        'IDENTITY_API_KEY',
        'S3_SECRET_ACCESS_KEY',
        'VAPID_PRIVATE_KEY',
        'AUTH_PRIVATE_KEY',
        'RECEIPT_SIGNING_KEY',
      ]),
    );
  });

  it.each(NAMES)('%s: unset, one character short (or not a key), or any public value is refused, naming it', (name) => {
    if (OPTIONAL.has(name)) expect(refusals(envWith(name, undefined))).toEqual([]);
    else expectRefusedFor(name, undefined);
    expectRefusedFor(name, tooShort(name));
    const own: SecretRule = SECRETS[name];
    if (own.sandbox) {
      expectRefusedFor(name, own.sandbox);
      expectRefusedFor(name, ` ${own.sandbox.toUpperCase()} `);
      expect(refusals(envWith(name, own.sandbox))[0]).toContain('still has its sandbox default value');
    }
    // Another setting's sandbox value, or a store's documented default, is as public.
    for (const value of PUBLIC_VALUES.keys()) expectRefusedFor(name, value);
  });

  it('provider C with its sandbox secret: the found webhook forgery (airtime-to-cash credited for nothing)', () => {
    expect(refusals(envWith('VTU_PROVIDER_C_SECRET', 'sandbox-secret-c'))).toEqual([
      'VTU_PROVIDER_C_SECRET still has its sandbox default value, which is public: set a secret of its own',
    ]);
    expect(refusals(envWith('VTU_PROVIDER_C_SECRET', undefined))[0]).toMatch(/^VTU_PROVIDER_C_SECRET .*is required in production/);
  });

  it('the S3 secret is needed with an access key id only, and not read with the local driver', () => {
    const s3 = NEEDS.S3_SECRET_ACCESS_KEY!;
    expect(refusals({ ...PRODUCTION, ...s3 })).toEqual([expect.stringMatching(/^S3_SECRET_ACCESS_KEY .*is required/)]);
    expect(refusals({ ...PRODUCTION, STORAGE_DRIVER: 's3', S3_BUCKET: 'kyc' })).toEqual([]);
    expect(refusals({ ...PRODUCTION, ...s3, S3_SECRET_ACCESS_KEY: 'minioadmin' })).toEqual([
      "S3_SECRET_ACCESS_KEY has a public value (MinIO's default credentials): set a secret of its own",
    ]);
    expect(refusals({ ...PRODUCTION, S3_SECRET_ACCESS_KEY: 'minioadmin' })).toEqual([]);
  });

  it('a VAPID private key of another pair is refused', () => {
    const other = refusals({ ...PRODUCTION, VAPID_PUBLIC_KEY: webpush.generateVAPIDKeys().publicKey });
    expect(other).toEqual(['VAPID_PRIVATE_KEY: not the private key of VAPID_PUBLIC_KEY (the two are one key pair)']);
  });

  it('every problem is reported at once, each naming its setting', () => {
    const problems = refusals({
      ...PRODUCTION,
      PIN_PEPPER: 'sandbox-pin-pepper-not-for-production',
      VTU_PROVIDER_A_KEY: 'short',
      VTU_PROVIDER_C_SECRET: undefined,
      METRICS_TOKEN: 'sk_sandbox_processor',
    });
    expect(problems.map((p) => p.split(/[ :]/)[0])).toEqual(['PIN_PEPPER', 'VTU_PROVIDER_A_KEY', 'VTU_PROVIDER_C_SECRET', 'METRICS_TOKEN']);
  });

  it('the sandbox falls back to exactly the values production refuses (one table, no drift)', () => {
    const c = loadConfig({ NODE_ENV: 'test' });
    const fallbacks = [
      c.secrets.pinPepper,
      c.secrets.dataEncryptionKey,
      c.secrets.fileSigningSecret,
      c.processor.secretKey,
      c.sms.apiKey,
      c.sms.webhookSecret!,
      ...Object.values(c.vtu.providers).flatMap((p) => [p.key, ...(p.secret ? [p.secret] : [])]),
    ];
    expect(fallbacks).toHaveLength(11);
    for (const value of fallbacks) expect(PUBLIC_VALUES.has(value.toLowerCase()), value).toBe(true);
  });

  it('docs/security.md "Secrets refused in production" lists every secret and every public value', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs/security.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Secrets refused in production'), doc.indexOf('## OWASP'));
    for (const name of NAMES) expect(section, name).toContain(`| \`${name}\` |`);
    for (const value of PUBLIC_VALUES.keys()) expect(section.toLowerCase().replace(/\s+/g, ' '), value).toContain(`\`${value}\``);
  });

  it('the real entry point exits 78 naming VTU_PROVIDER_C_SECRET set to its sandbox value', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, ...PRODUCTION, VTU_PROVIDER_C_SECRET: 'sandbox-secret-c' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status).toBe(78);
    expect(run.stderr).toContain('VTU_PROVIDER_C_SECRET still has its sandbox default value');
  }, 150_000);
});

describe('OPERATOR_2FA=optional in production warns (issue 41)', () => {
  const opened: { app: FastifyInstance; database: Database; dir: string }[] = [];
  afterAll(async () => {
    for (const o of opened) {
      await o.app.close();
      await o.database.close();
      fs.rmSync(o.dir, { recursive: true, force: true });
    }
  });

  /** The real app on a production configuration (PGlite in place of PostgreSQL, e-mails captured), with its log. */
  async function productionApp(env: Record<string, string>) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vtu-prod-defaults-'));
    const config = loadConfig({ ...PRODUCTION, ADMIN_EMAILS: 'ops@example.com', DATA_DIR: dir, WEB_DIR: '', ...env });
    // The run's migrated image (test/helpers/global-setup.ts), as the harness loads it.
    const image = inject('pgliteImagePath');
    const pgliteImage = image && fs.existsSync(image) ? new Blob([fs.readFileSync(image)]) : undefined;
    const database = await openDatabase({ url: 'memory://', dataDir: dir, poolSize: 4, preparedStatements: true, pgliteImage });
    const logs: string[] = [];
    const mails: OutboundEmail[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        logs.push(chunk.toString());
        cb();
      },
    });
    const app = await buildApp({
      config,
      database,
      clock: new TestClock(),
      log: createLogger({ level: 'info', stream }),
      overrides: { resolver: testResolver, mailer: { send: async (m) => void mails.push(m) } },
    });
    await app.ready();
    opened.push({ app, database, dir });
    const signIn = async (email: string) => {
      const post = (url: string, data: unknown) => app.inject({ method: 'POST', url, payload: { data } });
      expect((await post('/_serverFn/sendLoginOtpPublicAuth', { email })).statusCode).toBe(200);
      const code = /(\d{6})/.exec(mails.filter((m) => m.to === email).at(-1)!.text)![1];
      const res = await post('/_serverFn/verifyLoginOtpPublicAuth', { email, code });
      expect(res.statusCode).toBe(200);
      return res.json().session.accessToken as string;
    };
    const profile = async (token: string) =>
      (
        await app.inject({ method: 'GET', url: '/_serverFn/getProfileBearerSettings', headers: { authorization: `Bearer ${token}` } })
      ).json();
    return { logs, signIn, profile };
  }

  const warnings = (logs: string[]) =>
    logs.map((l) => JSON.parse(l)).filter((l) => l.level === 40 && l.warning === 'OPERATOR_2FA_OPTIONAL');

  it('logged at start and answered to an operator by getProfile (the console banner), not to a customer', async () => {
    const p = await productionApp({ OPERATOR_2FA: 'optional' });
    expect(warnings(p.logs)).toHaveLength(1);
    expect(warnings(p.logs)[0].msg).toMatch(/^OPERATOR_2FA=optional: operators without a second factor/);
    const operator = await p.profile(await p.signIn('ops@example.com'));
    expect(operator.consoleWarnings).toEqual([
      { code: 'OPERATOR_2FA_OPTIONAL', message: expect.stringContaining('OPERATOR_2FA=required') },
    ]);
    const customer = await p.profile(await p.signIn('ada@example.com'));
    expect(customer.profile.operatorRoles).toEqual([]);
    expect(customer).not.toHaveProperty('consoleWarnings');
  }, 120_000);

  it('OPERATOR_2FA=required (the production default): no warning, no banner', async () => {
    const p = await productionApp({});
    expect(warnings(p.logs)).toEqual([]);
    expect((await p.profile(await p.signIn('ops@example.com'))).consoleWarnings).toEqual([]);
  }, 120_000);
});
