import http from 'node:http';
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { exportJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { loadConfig, ConfigError } from '../../src/config.js';
import { PRODUCTION } from '../helpers/production-env.js';
import { call, createHarness, signIn, type Harness } from '../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

describe('configuration', () => {
  it('production refuses sandbox, default secrets and a missing DATABASE_URL, naming each setting', () => {
    let message = '';
    try {
      loadConfig({ NODE_ENV: 'production' });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    for (const name of [
      'DATABASE_URL',
      'PIN_PEPPER',
      'DATA_ENCRYPTION_KEY',
      'FILE_SIGNING_SECRET',
      'PROCESSOR_SECRET_KEY',
      'AUTH_PRIVATE_KEY',
      'VTU_PROVIDER_C_URL',
    ]) {
      expect(message).toContain(name);
    }
    expect(() => loadConfig({ NODE_ENV: 'production', SANDBOX: 'true' })).toThrow(/SANDBOX must be false/);
    expect(() => loadConfig({ NODE_ENV: 'production', PIN_PEPPER: 'sandbox-pin-pepper-not-for-production' })).toThrow(
      /PIN_PEPPER still has its sandbox default/,
    );
  });

  it('production starts with every setting given', () => {
    const c = loadConfig({ ...PRODUCTION, DATABASE_URL: 'postgres://db/x' });
    expect(c.production).toBe(true);
    expect(c.sandbox).toBe(false);
  });

  it('a malformed AUTH_PRIVATE_KEY or RECEIPT_SIGNING_KEY stops the start with exit 78, naming the setting, no stack trace', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    for (const [name, value, why] of [
      ['AUTH_PRIVATE_KEY', '-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----', /not a readable private key/],
      ['AUTH_PRIVATE_KEY', rsa, /expected an Ed25519 private key, got rsa/],
      ['RECEIPT_SIGNING_KEY', 'garbage', /not a readable private key/],
    ] as const) {
      expect(() => loadConfig({ ...PRODUCTION, [name]: value }), name).toThrow(ConfigError);
      expect(() => loadConfig({ ...PRODUCTION, [name]: value }), name).toThrow(new RegExp(`${name}: ${why.source}`));
    }
    // The real entry point, as an operator starts it.
    const run = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'src/main.ts'], {
      env: { ...PRODUCTION, PATH: process.env.PATH, AUTH_PRIVATE_KEY: 'garbage' },
      encoding: 'utf8',
      // Loading the whole service through tsx takes a few seconds, far longer on a busy machine.
      timeout: 200_000,
    });
    expect(run.status).toBe(78);
    expect(run.stderr).toContain('AUTH_PRIVATE_KEY: not a readable private key');
    expect(run.stderr).not.toMatch(/^\s+at /m);
  }, 240_000);

  it('the sandbox operator address is an operator in the sandbox only', () => {
    expect(loadConfig({ NODE_ENV: 'test', ADMIN_EMAILS: 'a@example.com' }).adminEmails).toEqual(['a@example.com', 'operator@demo.test']);
    expect(loadConfig({ ...PRODUCTION, DATABASE_URL: 'postgres://db/x', ADMIN_EMAILS: 'a@example.com' }).adminEmails).toEqual([
      'a@example.com',
    ]);
    expect(loadConfig({ NODE_ENV: 'development', SANDBOX: 'false' }).adminEmails).toEqual([]);
  });

  it('reports invalid values readably', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
    expect(loadConfig({ PORT: '4000', DATA_DIR: '/tmp/x' })).toMatchObject({ port: 4000, dataDir: '/tmp/x' });
    // Performance settings: worker concurrency within 1-64, named statements on unless turned off.
    expect(loadConfig({})).toMatchObject({ jobsConcurrency: 8, databasePreparedStatements: true });
    expect(loadConfig({ JOBS_CONCURRENCY: '24', DATABASE_PREPARED_STATEMENTS: 'false' })).toMatchObject({
      jobsConcurrency: 24,
      databasePreparedStatements: false,
    });
    expect(() => loadConfig({ JOBS_CONCURRENCY: '0' })).toThrow(/JOBS_CONCURRENCY/);
    expect(() => loadConfig({ JOBS_CONCURRENCY: 'many' })).toThrow(/JOBS_CONCURRENCY/);
  });
});

describe('platform endpoints', () => {
  it('healthz, readyz, metrics, jwks', async () => {
    expect((await h.app.inject({ url: '/healthz' })).json()).toEqual({ ok: true });
    expect((await h.app.inject({ url: '/readyz' })).json()).toEqual({ ok: true });
    await signIn(h);
    const m = await h.app.inject({ url: '/metrics' });
    expect(m.body).toContain('http_operation_duration_seconds_bucket{le="0.005",operation="verifyLoginOtp",status="200"}');
    const jwks = (await h.app.inject({ url: '/.well-known/jwks.json' })).json();
    expect(jwks.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' });
    expect(jwks.keys[0].d).toBeUndefined();
  });

  it('serves OpenAPI 3.1 with purposes, schemas and error responses, and the docs page', async () => {
    const doc = (await h.app.inject({ url: '/api/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    const op = doc.paths['/_serverFn/getWalletStateBearerWallet'].get;
    expect(op.summary).toBe('Balance, locked bonuses, recent ledger');
    expect(op.responses['401']).toEqual({ $ref: '#/components/responses/UNAUTHENTICATED' });
    expect(op.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/GetWalletStateOutput' });
    const body = doc.paths['/_serverFn/sendLoginOtpPublicAuth'].post.requestBody.content['application/json'];
    expect(body.schema.properties.data).toEqual({ $ref: '#/components/schemas/SendLoginOtpInput' });
    expect(doc.components.schemas.SendLoginOtpInput.properties.email).toBeDefined();
    expect(body.example).toEqual({ data: { email: 'ada@example.com' } });
    // Shared components: the error envelope, money, paging and the shared outputs.
    expect(doc.components.schemas.Naira.type).toBe('number');
    expect(doc.components.schemas.Transaction.properties.amount).toEqual({ $ref: '#/components/schemas/Naira' });
    expect(doc.paths['/_serverFn/listMyVtuTransactionsBearerVTU'].get.parameters[0]).toEqual({ $ref: '#/components/parameters/Limit' });
    // Every operation: a description and a defined tag; the webhook and the public endpoints are there.
    const tags = new Set(doc.tags.map((t: { name: string }) => t.name));
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { description?: string; tags?: string[] }>>)) {
      for (const o of Object.values(item)) {
        expect(o.description, path).toBeTruthy();
        expect(tags.has(o.tags![0]), path).toBe(true);
      }
    }
    expect(doc.webhooks.chargeSuccess).toEqual({ $ref: '#/components/pathItems/chargeSuccess' });
    // Issue 45: the signed events sent to a reseller's endpoints, each with its body and the signature header.
    for (const event of ['purchase.succeeded', 'purchase.failed', 'purchase.refunded', 'wallet.credited', 'epin.batch_ready']) {
      const post = doc.webhooks[event]?.post;
      expect(post, event).toBeDefined();
      expect(post.parameters.map((p: { name: string }) => p.name)).toEqual(['Webhook-Id', 'Webhook-Signature']);
      const ref = post.requestBody.content['application/json'].schema.$ref as string;
      const body = doc.components.schemas[ref.split('/').pop()!];
      expect(body.properties.type.const, event).toBe(event);
      expect(body.required).toEqual(['id', 'type', 'created', 'data']);
      expect(post.description).toContain('HMAC-SHA256');
    }
    expect(doc.components.schemas.WebhookWalletCredited.properties.data.required).toEqual(['amount', 'source', 'reference']);
    for (const p of [
      '/api/public/payments/webhook/processor',
      '/api/public/report-issue',
      '/api/public/login-failed',
      '/healthz',
      '/readyz',
      '/metrics',
    ])
      expect(doc.paths[p], p).toBeDefined();
    const docs = await h.app.inject({ url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger');
  });

  it('answers with a request id and security headers', async () => {
    const res = await h.app.inject({ url: '/healthz' });
    expect(res.headers['x-request-id']).toMatch(/^req_/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // helmet's defaults without a content security policy, on success, 404 and error answers alike.
    const unknown = await h.app.inject({ url: '/no/such/route' });
    const unauthorised = await h.app.inject({ url: '/_serverFn/getWalletStateBearerWallet' });
    for (const r of [res, unknown, unauthorised]) {
      expect(r.headers).toMatchObject({
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'x-content-type-options': 'nosniff',
        'x-dns-prefetch-control': 'off',
      });
      expect(r.headers['content-security-policy']).toBeUndefined();
      expect(r.headers['x-request-id']).toMatch(/^req_/);
    }
    expect([unknown.statusCode, unauthorised.statusCode]).toEqual([404, 401]);
  });

  it('unknown routes are 404 in the error shape; a non-JSON body is 415; an oversize body is 413', async () => {
    const nf = await h.app.inject({ url: '/nope' });
    expect(nf.statusCode).toBe(404);
    expect(nf.json().error.code).toBe('NOT_FOUND');
    const media = await h.app.inject({
      method: 'POST',
      url: '/_serverFn/sendLoginOtpPublicAuth',
      headers: { 'content-type': 'application/xml' },
      payload: '<x/>',
    });
    expect(media.statusCode).toBe(415);
    expect(media.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const big = await call(h, 'POST', '/_serverFn/sendLoginOtpPublicAuth', { email: 'a@b.co', pad: 'x'.repeat(300_000) });
    expect(big.statusCode).toBe(413);
    expect(big.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('the sandbox mailbox validates its query', async () => {
    const res = await h.app.inject({ url: '/sandbox/mailbox' });
    expect(res.statusCode).toBe(400);
  });
});

describe('rate limits', () => {
  it('per-account limit with RateLimit-* headers and Retry-After on 429', async () => {
    const lh = await createHarness({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const u = await signIn(lh);
      const get = () => call(lh, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: u.token });
      const first = await get();
      expect(first.headers['ratelimit-limit']).toBe('3');
      expect(first.headers['ratelimit-remaining']).toBe('2');
      await get();
      await get();
      const limited = await get();
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // Another account is not affected.
      const other = await signIn(lh);
      expect((await call(lh, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: other.token })).statusCode).toBe(200);
    } finally {
      await lh.close();
    }
  });

  it('an operation with two path forms has one budget across both', async () => {
    const lh = await createHarness({ env: { RATE_LIMIT_PER_MINUTE: '4' } });
    try {
      const u = await signIn(lh);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        for (const url of ['/_serverFn/listAirtimeNetworksBearerVTU', '/api/v1/listAirtimeNetworks']) {
          statuses.push((await call(lh, 'GET', url, undefined, { token: u.token })).statusCode);
        }
      }
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
      // Another operation keeps its own budget.
      expect((await call(lh, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: u.token })).statusCode).toBe(200);
    } finally {
      await lh.close();
    }
  });

  it('per-IP limits apply to non-loopback clients of public operations', async () => {
    const send = () =>
      h.app.inject({
        method: 'POST',
        url: '/_serverFn/getOtpCooldownPublicAuth',
        remoteAddress: '203.0.113.9',
        payload: { data: { email: 'ip@example.com' } },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await send()).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[21]).toBe(429);
  });
});

describe('external OIDC tokens', () => {
  it('accepts a token from AUTH_JWKS_URL with the configured issuer and audience; refuses others', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = { ...(await exportJWK(publicKey)), kid: 'ext1', alg: 'ES256' };
    const server = http.createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const eh = await createHarness({
      env: {
        AUTH_JWKS_URL: `http://127.0.0.1:${port}/jwks`,
        AUTH_EXTERNAL_ISSUER: 'https://idp.example',
        AUTH_EXTERNAL_AUDIENCE: 'vtu',
        AUTH_EXTERNAL_ALGORITHMS: 'ES256',
      },
    });
    try {
      const token = (claims: Record<string, unknown>, iss = 'https://idp.example', aud = 'vtu') =>
        new SignJWT(claims)
          .setProtectedHeader({ alg: 'ES256', kid: 'ext1' })
          .setSubject('ext-123')
          .setIssuer(iss)
          .setAudience(aud)
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(privateKey);
      const good = await token({ email: 'Ext@Example.com', email_verified: true });
      const res = await call(eh, 'GET', '/_serverFn/getProfileBearerSettings', undefined, { token: good });
      expect(res.statusCode).toBe(200);
      expect(res.json().profile.email).toBe('ext@example.com');
      for (const bad of [
        await token({ email: 'ext@example.com' }, 'https://evil.example'),
        await token({ email: 'ext@example.com' }, 'https://idp.example', 'other'),
        await token({ email: 'ext@example.com', email_verified: false }),
        await token({}),
      ]) {
        expect((await call(eh, 'GET', '/_serverFn/getProfileBearerSettings', undefined, { token: bad })).statusCode).toBe(401);
      }
    } finally {
      await eh.close();
      server.close();
    }
  });
});

describe('jobs', () => {
  it('retries with exponential backoff on the injected clock, then dead-letters', async () => {
    const { jobs } = h.app.services;
    let calls = 0;
    jobs.register({
      name: 'test.flaky',
      payload: z.object({ n: z.number() }),
      maxAttempts: 3,
      backoffMs: 1000,
      handler: async () => {
        calls++;
        throw new Error('boom');
      },
    });
    await jobs.enqueue(h.app.services.db, 'test.flaky', { n: 1 });
    expect(await jobs.drain()).toBe(1);
    expect(await jobs.drain()).toBe(0); // waiting 1 s
    h.clock.advance(1000);
    expect(await jobs.drain()).toBe(1);
    h.clock.advance(1999);
    expect(await jobs.drain()).toBe(0); // second backoff is 2 s
    h.clock.advance(1);
    expect(await jobs.drain()).toBe(1);
    expect(calls).toBe(3);
    const dead = await jobs.deadJobs();
    expect(dead.some((d) => d.queue === 'test.flaky' && d.last_error === 'boom')).toBe(true);
  });

  it('a job enqueued in a rolled-back transaction never runs', async () => {
    const { jobs, db } = h.app.services;
    let ran = 0;
    jobs.register({ name: 'test.tx', payload: z.object({}), handler: async () => void ran++ });
    await db
      .transaction(async (tx) => {
        await jobs.enqueue(tx, 'test.tx', {});
        tx.rollback();
      })
      .catch(() => undefined);
    await jobs.drain();
    expect(ran).toBe(0);
  });

  it('claims an expired lease first, then due jobs by priority and then by due time; never more than asked', async () => {
    const { jobs, db } = h.app.services;
    const ran: string[] = [];
    jobs.register({ name: 'test.low', payload: z.object({ tag: z.string() }), handler: async ({ tag }) => void ran.push(tag) });
    jobs.register({
      name: 'test.high',
      payload: z.object({ tag: z.string() }),
      priority: 10,
      handler: async ({ tag }) => void ran.push(tag),
    });
    await jobs.drain();
    // Due an hour ago, a second apart (ahead of anything else due in this harness): oldest first within a priority.
    const hourAgo = h.clock.now().getTime() - 3_600_000;
    const due = [
      ['test.low', 'low1'],
      ['test.high', 'high1'],
      ['test.low', 'low2'],
      ['test.high', 'high2'],
    ];
    for (const [i, [name, tag]] of due.entries()) await jobs.enqueue(db, name, { tag }, { runAt: new Date(hourAgo + i * 1000) });
    await jobs.enqueue(db, 'test.low', { tag: 'stale' });
    // A worker claimed it and died: its lease ran out a minute ago.
    await db.execute(
      sql`UPDATE jobs SET status = 'running', locked_until = ${new Date(h.clock.now().getTime() - 60_000)} WHERE payload->>'tag' = 'stale'`,
    );
    expect(await jobs.drain(1)).toBe(1);
    expect(ran).toEqual(['stale']);
    expect(await jobs.drain(2)).toBe(2);
    expect(ran.slice(1).sort()).toEqual(['high1', 'high2']);
    expect(await jobs.drain(1)).toBe(1);
    expect(ran[3]).toBe('low1');
    expect(await jobs.drain()).toBe(1);
    expect(ran[4]).toBe('low2');
  });

  it('cron slots are enqueued once per slot however many ticks (several instances)', async () => {
    const { jobs } = h.app.services;
    let ran = 0;
    jobs.register({ name: 'test.cron', payload: z.object({}), handler: async () => void ran++ });
    jobs.schedule({ job: 'test.cron', everyMs: 60_000 });
    await Promise.all([jobs.tickCrons(), jobs.tickCrons(), jobs.tickCrons()]);
    await jobs.drain();
    expect(ran).toBe(1);
    await jobs.tickCrons();
    await jobs.drain();
    expect(ran).toBe(1);
    h.clock.advance(60_000);
    await jobs.tickCrons();
    await jobs.drain();
    expect(ran).toBe(2);
  });
});
