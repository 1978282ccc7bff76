import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOUND_WEBHOOKS, webhookBodySchema } from '../../src/modules/developers/api.js';
import { call, createHarness, expectLedgerOk, type Harness, type TestUser } from '../helpers/harness.js';
import { tier2User, user, walletBalance } from '../helpers/factories.js';

/**
 * Issue 45: `wallet.credited` reaches a reseller's endpoint, signed, once per credit: a card top-up settled by the
 * processor's webhook (a replayed webhook credits nothing and sends nothing), and a transfer from another customer.
 * An endpoint of another customer, or one without the event, gets nothing.
 */
let h: Harness;
let owner: TestUser;
let secret: string;
let receiver: http.Server;
const got: { path: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

const at = (path: string) => got.filter((g) => g.path === path);
const drain = () => h.app.services.jobs.drain();

/** HMAC-SHA256 of `<t>.<body>` with the secret, computed by openssl as a receiver's shell script would. */
const opensslSignature = (t: string, body: string, key: string) =>
  execFileSync('openssl', ['dgst', '-sha256', '-hmac', key], { input: `${t}.${body}` })
    .toString()
    .trim()
    .split(' ')
    .pop();

/** The body as the API reference describes it (webhook-docs.ts), nothing more: the reference and the sender agree. */
const asDocumented = (body: string) =>
  webhookBodySchema(OUTBOUND_WEBHOOKS.find((w) => w.event === 'wallet.credited')!)
    .extend({ data: OUTBOUND_WEBHOOKS.find((w) => w.event === 'wallet.credited')!.data.strict() })
    .strict()
    .parse(JSON.parse(body));

function expectSigned(d: { headers: http.IncomingHttpHeaders; body: string }) {
  asDocumented(d.body);
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(d.headers['webhook-signature']))!;
  expect(Number(t)).toBe(Math.floor(h.clock.now().getTime() / 1000));
  expect(createHmac('sha256', secret).update(`${t}.${d.body}`).digest('hex')).toBe(v1);
  expect(opensslSignature(t, d.body, secret)).toBe(v1);
  expect(opensslSignature(t, d.body.replace(/"amount":\d+/, '"amount":1'), secret)).not.toBe(v1);
  expect(d.headers['webhook-id']).toBe(JSON.parse(d.body).id);
}

async function endpoint(who: TestUser, url: string, events: string[]) {
  const res = await call(h, 'POST', '/_serverFn/createWebhookEndpointBearerDevelopers', { url, events }, { token: who.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().secret as string;
}

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ path: req.url ?? '', headers: req.headers, body });
      res.statusCode = 200;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  h = await createHarness();
  owner = await user(h, { tier: 1, username: 'creditowner' });
  secret = await endpoint(owner, `${base}/owner`, ['wallet.credited']);
  // Another customer's endpoint for the event, and the owner's second endpoint without it.
  const other = await user(h, { tier: 1 });
  await endpoint(other, `${base}/other`, ['wallet.credited']);
  await endpoint(owner, `${base}/purchases`, ['purchase.succeeded']);
});
afterAll(async () => {
  await h?.close();
  await new Promise((r) => receiver.close(r));
});

describe('wallet.credited webhooks', () => {
  it('a top-up settled by the processor is delivered once, signed, with its amount, source and reference', async () => {
    const intent = await call(h, 'POST', '/_serverFn/createTopupIntentBearerWallet', { amount: 1500 }, { token: owner.token });
    expect(intent.statusCode, intent.body).toBe(200);
    const reference = intent.json().reference as string;
    const pay = () =>
      h.app.inject({ method: 'POST', url: '/sandbox/processor/pay', payload: { reference, outcome: 'success', webhook: true } });
    expect((await pay()).statusCode).toBe(200);
    await drain();
    expect(await walletBalance(h, owner.id)).toBe(1500);
    const [d] = at('/owner');
    expect(at('/owner')).toHaveLength(1);
    const event = JSON.parse(d.body);
    expect(event).toMatchObject({ type: 'wallet.credited', data: { amount: 1500, source: 'topup' } });
    expect(event.id).toBe(`evt_wallet_credited_${event.data.reference}`);
    expectSigned(d);
    // The processor's webhook again: nothing more is credited, and nothing more is sent.
    await pay();
    await drain();
    expect(at('/owner')).toHaveLength(1);
    expect(await walletBalance(h, owner.id)).toBe(1500);
    expect(at('/other')).toHaveLength(0);
    expect(at('/purchases')).toHaveLength(0);
    const log = await call(h, 'GET', '/_serverFn/listWebhookDeliveriesBearerDevelopers', { limit: 10 }, { token: owner.token });
    expect(log.json().items).toMatchObject([{ eventType: 'wallet.credited', status: 'succeeded', responseStatus: 200 }]);
    await expectLedgerOk(h);
  });

  it('a transfer from another customer is delivered to the recipient, source transfer', async () => {
    const sender = await tier2User(h, { fullName: 'Bola Ade', pin: '1234', naira: 1000 });
    const sent = await call(
      h,
      'POST',
      '/_serverFn/transferWalletFnBearerWallet',
      { username: 'creditowner', amount: 250, pin: '1234' },
      { token: sender.token },
    );
    expect(sent.statusCode, sent.body).toBe(200);
    await drain();
    expect(at('/owner')).toHaveLength(2);
    const d = at('/owner')[1];
    expect(JSON.parse(d.body)).toMatchObject({
      type: 'wallet.credited',
      data: { amount: 250, source: 'transfer', reference: sent.json().reference },
    });
    expectSigned(d);
    expect(at('/other')).toHaveLength(0);
    await expectLedgerOk(h);
  });
});
