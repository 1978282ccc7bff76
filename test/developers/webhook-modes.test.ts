import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { DELIVERY_ATTEMPTS, DELIVERY_BACKOFF_MS } from '../../src/modules/developers/webhooks.js';
import { call, createHarness, expectLedgerOk, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { user, walletBalance } from '../helpers/factories.js';

// Issue 45: webhook endpoints have a mode, like keys. A test endpoint lives in the test world and takes only what test
// keys do there; a live endpoint takes only live events. Both are delivered to a real local receiver, signed with
// their own secrets.
let h: Harness;
let owner: TestUser;
let receiver: http.Server;
let base: string;
const secrets = { live: '', test: '' };
const got: Record<'live' | 'test', { headers: http.IncomingHttpHeaders; body: string }[]> = { live: [], test: [] };
const airtime = { network: 'mtn', phone: '08031234567', amount: 100 };
let n = 0;

const session = (method: 'GET' | 'POST', name: string, input: Record<string, unknown> = {}) =>
  call(h, method, `/_serverFn/${name}BearerDevelopers`, input, { token: owner.token });
const byKey = (key: string) =>
  call(h, 'POST', '/api/v1/buyAirtime', airtime, { token: key, headers: { 'idempotency-key': `modes-${n++}` } });
/** Both worlds' due jobs: the fan-out and the deliveries. */
const drainBoth = async () => {
  await h.app.services.jobs.drain();
  await h.app.services.testWorld!.drain();
  await h.app.services.jobs.drain();
};
/** Whether a delivery's Webhook-Signature is the HMAC of `<t>.<body>` with `secret`, as a receiver checks it. */
const signedWith = (d: { headers: http.IncomingHttpHeaders; body: string }, secret: string) => {
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(d.headers['webhook-signature']))!;
  return createHmac('sha256', secret).update(`${t}.${d.body}`).digest('hex') === v1;
};
const deliveries = async (mode: 'live' | 'test') => (await session('GET', 'listWebhookDeliveries', { mode, limit: 50 })).json().items;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      // The failing endpoint answers 503 to everything.
      if (req.url === '/failing') return void res.writeHead(503).end('down');
      got[req.url === '/test' ? 'test' : 'live'].push({ headers: req.headers, body });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  h = await createHarness();
  owner = await user(h, { tier: 2, pin: '1234', naira: 5000, level: 'agent' });
  for (const mode of ['live', 'test'] as const) {
    const made = await session('POST', 'createWebhookEndpoint', { url: `${base}/${mode}`, events: ['purchase.succeeded'], mode });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().endpoint.mode).toBe(mode);
    secrets[mode] = made.json().secret;
  }
});
afterAll(async () => {
  await h.close();
  await new Promise((r) => receiver.close(r));
});

describe('webhook endpoints per mode', () => {
  it('the developer page lists both endpoints by mode; the live database holds only the live one', async () => {
    const list = (await session('GET', 'listWebhookEndpoints')).json().endpoints;
    expect(list.map((e: { mode: string; url: string }) => `${e.mode} ${e.url}`).sort()).toEqual([`live ${base}/live`, `test ${base}/test`]);
    const stored = await rows<{ url: string }>(h.app.services.db, sql`SELECT url FROM webhook_endpoints`);
    expect(stored.map((r) => r.url)).toEqual([`${base}/live`]);
  });

  it('a purchase by test key is delivered, signed with the test secret, to the test endpoint only; no live money moves', async () => {
    const key = (await session('POST', 'createApiKey', { name: 'sandbox', mode: 'test', scopes: ['read', 'purchase'] })).json().secret;
    expect((await session('POST', 'fundTestWallet', { amount: 1000 })).statusCode).toBe(200);
    const before = await walletBalance(h, owner.id);
    const buy = await byKey(key);
    expect(buy.statusCode, buy.body).toBe(200);
    await drainBoth();
    expect(got.live).toHaveLength(0);
    expect(got.test).toHaveLength(1);
    const event = JSON.parse(got.test[0].body);
    expect(event).toMatchObject({ type: 'purchase.succeeded', data: { transactionId: buy.json().transaction.id, amount: 100 } });
    expect(signedWith(got.test[0], secrets.test)).toBe(true);
    expect(signedWith(got.test[0], secrets.live)).toBe(false);
    expect(await walletBalance(h, owner.id)).toBe(before);
    // The delivery log per mode: the test delivery is in test's, none in live's.
    expect(await deliveries('live')).toEqual([]);
    const [logged] = await deliveries('test');
    expect(logged).toMatchObject({ mode: 'test', eventId: event.id, status: 'succeeded', responseStatus: 200 });
    // Resent by hand from the live page: the test world sends it again, to the test endpoint.
    expect((await session('POST', 'resendWebhookDelivery', { id: logged.id })).json().delivery.mode).toBe('test');
    await drainBoth();
    expect(got.test.map((d) => d.headers['webhook-id'])).toEqual([event.id, event.id]);
    expect(got.live).toHaveLength(0);
  });

  it('a live purchase, by session or by live key, is delivered to the live endpoint only', async () => {
    const key = (await session('POST', 'createApiKey', { name: 'shop', mode: 'live', scopes: ['purchase'] })).json().secret;
    const tests = got.test.length;
    const bySession = await call(h, 'POST', '/_serverFn/buyAirtimeBearerVTU', { ...airtime, pin: '1234' }, { token: owner.token });
    expect(bySession.statusCode, bySession.body).toBe(200);
    expect((await byKey(key)).statusCode).toBe(200);
    await drainBoth();
    expect(got.test).toHaveLength(tests);
    expect(got.live).toHaveLength(2);
    for (const d of got.live) {
      expect(signedWith(d, secrets.live)).toBe(true);
      expect(signedWith(d, secrets.test)).toBe(false);
    }
    expect((await deliveries('live')).map((d: { mode: string }) => d.mode)).toEqual(['live', 'live']);
    expect(await deliveries('test')).toHaveLength(1);
    await expectLedgerOk(h);
  });

  it('a test endpoint is disabled from the live page by its id, and then takes nothing', async () => {
    const test = (await session('GET', 'listWebhookEndpoints')).json().endpoints.find((e: { mode: string }) => e.mode === 'test');
    const off = await session('POST', 'disableWebhookEndpoint', { id: test.id });
    expect(off.json().endpoint).toMatchObject({ id: test.id, mode: 'test', status: 'disabled' });
    const key = (await session('POST', 'createApiKey', { name: 'sandbox 2', mode: 'test', scopes: ['purchase'] })).json().secret;
    const count = got.test.length;
    expect((await byKey(key)).statusCode).toBe(200);
    await drainBoth();
    expect(got.test).toHaveLength(count);
    // Another customer cannot reach it.
    const other = await user(h, { tier: 1 });
    const stranger = await call(h, 'POST', '/_serverFn/disableWebhookEndpointBearerDevelopers', { id: test.id }, { token: other.token });
    expect(stranger.statusCode).toBe(404);
  });
  it('a test endpoint that fails every attempt is disabled and its owner e-mailed by the live world, saying it is the test one', async () => {
    const made = await session('POST', 'createWebhookEndpoint', { url: `${base}/failing`, events: ['purchase.succeeded'], mode: 'test' });
    expect(made.statusCode, made.body).toBe(200);
    const key = (await session('POST', 'createApiKey', { name: 'failing', mode: 'test', scopes: ['purchase'] })).json().secret;
    expect((await session('POST', 'fundTestWallet', { amount: 1000 })).statusCode).toBe(200);
    expect((await byKey(key)).statusCode).toBe(200);
    for (let attempt = 1; attempt <= DELIVERY_ATTEMPTS; attempt++) {
      await drainBoth();
      h.clock.advance(DELIVERY_BACKOFF_MS * 2 ** (attempt - 1) + 1000);
    }
    await drainBoth();
    owner = { ...(await signIn(h, owner.email)), id: owner.id }; // the session's access token ran out meanwhile
    const failing = (await session('GET', 'listWebhookEndpoints'))
      .json()
      .endpoints.find((e: { url: string }) => e.url.endsWith('/failing'));
    expect(failing).toMatchObject({ mode: 'test', status: 'disabled' });
    expect(failing.disabledReason).toMatch(/^every attempt failed for about 3 days \(last: answered 503\)$/);
    // The e-mail is the live world's (the customer's real mailbox), in the customer's language, naming the test endpoint.
    await h.app.services.jobs.drain();
    const mail = await h.app.inject({ method: 'GET', url: `/sandbox/mailbox?to=${encodeURIComponent(owner.email)}` });
    const sent = (mail.json().items as { subject: string; text: string }[]).filter((m) => /webhook endpoint was disabled/.test(m.subject));
    expect(sent.map((m) => m.subject)).toEqual(['Your test webhook endpoint was disabled']);
    expect(sent[0].text).toContain(`your test endpoint ${base}/failing: every attempt failed for about 3 days (last: answered 503)`);
  }, 60_000);
});
