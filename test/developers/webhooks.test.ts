import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { DELIVERY_ATTEMPTS, DELIVERY_BACKOFF_MS, createWebhooks } from '../../src/modules/developers/webhooks.js';
import { call, createHarness, expectLedgerOk, signIn, testResolver, type Harness, type TestUser } from '../helpers/harness.js';
import { user } from '../helpers/factories.js';

// Issue 45: signed outbound webhooks, delivered to a real local receiver, checked with openssl.
let h: Harness;
let owner: TestUser;
let receiver: http.Server;
let url: string;
let secret: string;
let answer = 200;
const got: { headers: http.IncomingHttpHeaders; body: string }[] = [];
let n = 0;
/** TCP connections the receiver accepted (a refused delivery makes none). */
let connections = 0;

const session = (method: 'GET' | 'POST', name: string, input: Record<string, unknown> = {}) =>
  call(h, method, `/_serverFn/${name}BearerDevelopers`, input, { token: owner.token });
const buy = () =>
  call(
    h,
    'POST',
    '/_serverFn/buyAirtimeBearerVTU',
    { network: 'mtn', phone: '08031234567', amount: 100, pin: '1234' },
    {
      token: owner.token,
      headers: { 'idempotency-key': `wh-${n++}` },
    },
  );
const deliveries = async () => (await session('GET', 'listWebhookDeliveries', { limit: 50 })).json().items;
/** openssl's HMAC-SHA256 of `<t>.<body>` with the endpoint's secret, as a receiver in any language computes it. */
const opensslSignature = (t: string, body: string, key: string) =>
  execFileSync('openssl', ['dgst', '-sha256', '-hmac', key], { input: `${t}.${body}` })
    .toString()
    .trim()
    .split(' ')
    .pop();

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.statusCode = answer;
      res.end('ok');
    });
  });
  receiver.on('connection', () => connections++);
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  h = await createHarness();
  owner = await user(h, { tier: 2, pin: '1234', naira: 5000 });
  const made = await session('POST', 'createWebhookEndpoint', { url, events: ['purchase.succeeded', 'wallet.credited'] });
  expect(made.statusCode, made.body).toBe(200);
  secret = made.json().secret;
});
afterAll(async () => {
  await h.close();
  await new Promise((r) => receiver.close(r));
});

describe('signed outbound webhooks', () => {
  it('a delivered purchase is posted to the endpoint, signed over the timestamp and the body (openssl agrees)', async () => {
    expect((await buy()).statusCode).toBe(200);
    await h.app.services.jobs.drain();
    expect(got).toHaveLength(1);
    const { headers, body } = got[0];
    const event = JSON.parse(body);
    expect(event).toMatchObject({ type: 'purchase.succeeded', data: { service: 'airtime', amount: 100 } });
    expect(headers['webhook-id']).toBe(event.id);
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(headers['webhook-signature']))!;
    expect(Number(t)).toBe(Math.floor(h.clock.now().getTime() / 1000));
    expect(opensslSignature(t, body, secret)).toBe(v1);
    // Another body under the same signature does not verify: a replayed or altered body is refused by the receiver.
    expect(opensslSignature(t, body.replace('100', '900'), secret)).not.toBe(v1);
    const [logged] = await deliveries();
    expect(logged).toMatchObject({ status: 'succeeded', attempts: 1, responseStatus: 200 });
    expect(logged.responseMs).toBeGreaterThanOrEqual(0);
    await expectLedgerOk(h);
  });

  it('a failed delivery is retried with backoff, and can be resent by hand', async () => {
    answer = 500;
    await buy();
    await h.app.services.jobs.drain();
    expect((await deliveries())[0]).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 500 });
    answer = 200;
    h.clock.advance(DELIVERY_BACKOFF_MS + 1000);
    await h.app.services.jobs.drain();
    const [retried] = await deliveries();
    expect(retried).toMatchObject({ status: 'succeeded', attempts: 2, responseStatus: 200 });
    const before = got.length;
    expect((await session('POST', 'resendWebhookDelivery', { id: retried.id })).statusCode).toBe(200);
    await h.app.services.jobs.drain();
    expect(got.length).toBe(before + 1);
    expect(got.at(-1)!.headers['webhook-id']).toBe(got.at(-2)!.headers['webhook-id']);
  });

  it('an endpoint that fails every attempt for about 3 days is disabled and its owner e-mailed', async () => {
    answer = 503;
    await buy();
    let waited = 0;
    for (let attempt = 1; attempt <= DELIVERY_ATTEMPTS; attempt++) {
      await h.app.services.jobs.drain();
      const wait = DELIVERY_BACKOFF_MS * 2 ** (attempt - 1) + 1000;
      if (attempt < DELIVERY_ATTEMPTS) waited += wait;
      h.clock.advance(wait);
    }
    await h.app.services.jobs.drain();
    expect(waited / 86_400_000).toBeGreaterThan(2.5);
    owner = { ...(await signIn(h, owner.email)), id: owner.id }; // the session's access token ran out meanwhile
    expect((await deliveries())[0]).toMatchObject({ status: 'failed', attempts: DELIVERY_ATTEMPTS, responseStatus: 503 });
    const [endpoint] = (await session('GET', 'listWebhookEndpoints')).json().endpoints;
    expect(endpoint.status).toBe('disabled');
    const mail = await h.app.inject({ method: 'GET', url: `/sandbox/mailbox?to=${encodeURIComponent(owner.email)}` });
    expect(mail.json().items.map((m: { subject: string }) => m.subject)).toContain('Your live webhook endpoint was disabled');
    // A disabled endpoint gets nothing more.
    const count = got.length;
    answer = 200;
    await buy();
    await h.app.services.jobs.drain();
    expect(got.length).toBe(count);
  });

  it('outside the sandbox an endpoint, live or test, must be https on a public address', async () => {
    const { db, clock, work, outbox, log } = h.app.services;
    const { testWorld } = h.app.services;
    const live = createWebhooks({
      db,
      clock,
      work,
      outbox,
      log,
      resolver: testResolver,
      secretKey: 'k'.repeat(32),
      sandbox: false,
      testWorld,
      liveWorld: null,
    });
    const holder = { id: owner.id, email: owner.email, kycTier: 2 };
    for (const bad of [
      'http://hooks.example.com/x',
      'https://127.0.0.1/x',
      'https://10.1.2.3/x',
      'https://[::1]/x',
      'https://nowhere.invalid/x',
    ])
      for (const mode of ['live', 'test'] as const)
        await expect(
          live.createEndpoint(holder, { url: bad, events: ['purchase.succeeded'], mode }),
          `${mode} ${bad}`,
        ).rejects.toMatchObject({
          code: 'VALIDATION_FAILED',
        });
    const ok = await live.createEndpoint(holder, { url: 'https://hooks.example.com/x', events: ['purchase.succeeded'], mode: 'live' });
    expect(ok.endpoint.status).toBe('active');
  });

  it('outside the sandbox a delivery resolves the host once and never connects to a private answer (DNS rebinding)', async () => {
    const { db, clock, work, outbox, log, testWorld } = h.app.services;
    const asked: string[] = [];
    let rebound = false;
    // Public when the endpoint is added, loopback (this test's receiver) by the time it is delivered to.
    const resolver = async (host: string) => {
      asked.push(host);
      return [{ address: rebound ? '127.0.0.1' : '93.184.215.14', family: 4 }];
    };
    const live = createWebhooks({
      db,
      clock,
      work,
      outbox,
      log,
      resolver,
      secretKey: 'k'.repeat(32),
      sandbox: false,
      testWorld,
      liveWorld: null,
    });
    const holder = await user(h, { tier: 2 });
    const port = new URL(url).port;
    const made = await live.createEndpoint(
      { id: holder.id, email: holder.email, kycTier: 2 },
      { url: `https://rebind.example.com:${port}/hooks`, events: ['purchase.succeeded'], mode: 'live' },
    );
    expect(asked).toEqual(['rebind.example.com']);
    rebound = true;
    await live.fanout({ type: 'purchase.succeeded', userId: holder.id, id: 'evt_rebind', body: '{}' });
    const [d] = await rows<{ id: string }>(db, sql`SELECT id FROM webhook_deliveries WHERE endpoint_id = ${made.endpoint.id}`);
    const before = connections;
    await expect(live.deliver(d.id, 1)).rejects.toThrow(/resolves to a non-public address/);
    expect(asked).toEqual(['rebind.example.com', 'rebind.example.com']);
    // A literal private address written by another hand is refused the same way, without asking DNS.
    await db.execute(sql`UPDATE webhook_endpoints SET url = ${`https://127.0.0.1:${port}/hooks`} WHERE id = ${made.endpoint.id}`);
    await expect(live.deliver(d.id, 2)).rejects.toThrow(/non-public/);
    expect(asked).toHaveLength(2);
    expect(connections).toBe(before);
    const [logged] = await rows<{ status: string; attempts: number; error: string }>(
      db,
      sql`SELECT status, attempts, error FROM webhook_deliveries WHERE id = ${d.id}`,
    );
    expect(logged).toMatchObject({ status: 'pending', attempts: 2, error: 'refused: 127.0.0.1 resolves to a non-public address' });
  });
});
