import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { DELIVERY_BACKOFF_MS, FANOUT_JOB } from '../../src/modules/developers/webhooks.js';
import { call, createHarness, expectLedgerOk, type Harness, type TestUser } from '../helpers/harness.js';
import { setKycTier } from '../helpers/factories.js';
import { buyer, mtn, PIN, reconcile, refundCount, VTU_ENV, walletBalance } from '../vtu/helpers.js';

/**
 * Issue 45: purchase.failed and purchase.refunded webhooks, driven by the simulators' magic endings (docs/sandbox.md):
 * 1111 fails at once and 3333 after a requery (refunded in full), a social order for a link ending 6464 is delivered
 * in part (the rest refunded), a refundable flight is cancelled. Each event reaches an endpoint that takes it once,
 * signed; an endpoint without the event gets nothing; a retried delivery or fan-out job sends the same event again,
 * never another one.
 */
let h: Harness;
/** Endpoint at /owner: purchase.failed and purchase.refunded. */
let owner: TestUser;
/** Endpoint at /other: purchase.succeeded and wallet.credited. */
let other: TestUser;
let secret: string;
let receiver: http.Server;
const got: { path: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
/** The receiver's next answers; 200 once they run out. */
const answers: number[] = [];

const received = (path: string) => got.filter((g) => g.path === path);
const drain = () => h.app.services.jobs.drain();

async function endpoint(who: TestUser, url: string, events: string[]) {
  const res = await call(h, 'POST', '/_serverFn/createWebhookEndpointBearerDevelopers', { url, events }, { token: who.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().secret as string;
}

async function buyAirtime(who: TestUser, last4: string) {
  const res = await call(
    h,
    'POST',
    '/api/v1/buyAirtime',
    { network: 'mtn', phone: mtn(last4), amount: 500, pin: PIN },
    { token: who.token },
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().transaction;
}

/** The signature a receiver computes itself: HMAC-SHA256 of `<t>.<raw body>` with the endpoint's secret. */
function expectSigned(d: { headers: http.IncomingHttpHeaders; body: string }) {
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(d.headers['webhook-signature']))!;
  expect(createHmac('sha256', secret).update(`${t}.${d.body}`).digest('hex')).toBe(v1);
  expect(d.headers['webhook-id']).toBe(JSON.parse(d.body).id);
}

const fanoutJobs = (where: ReturnType<typeof sql>) =>
  rows<{ payload: Record<string, unknown> }>(h.app.services.db, sql`SELECT payload FROM jobs WHERE queue = ${FANOUT_JOB} AND ${where}`);

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ path: req.url ?? '', headers: req.headers, body });
      res.statusCode = answers.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  h = await createHarness({ env: VTU_ENV });
  owner = await buyer(h, 3_000_000);
  other = await buyer(h, 20_000);
  // Tier 3: fares and social orders pass the Tier 1 daily limit.
  await setKycTier(h, owner.id, 3);
  secret = await endpoint(owner, `${base}/owner`, ['purchase.failed', 'purchase.refunded']);
  await endpoint(other, `${base}/other`, ['purchase.succeeded', 'wallet.credited']);
  await drain();
  got.length = 0;
});
afterAll(async () => {
  await h.close();
  await new Promise((r) => receiver.close(r));
});

describe('purchase.failed', () => {
  it('a purchase that fails at once sends one signed purchase.failed, only to an endpoint that takes it', async () => {
    const before = await walletBalance(h, owner.id);
    const tx = await buyAirtime(owner, '1111');
    expect(tx.status).toBe('failed');
    expect(await walletBalance(h, owner.id)).toBe(before);
    const theirs = await buyAirtime(other, '1111');
    expect(theirs.status).toBe('failed');
    // A delivered purchase is no event of the owner's endpoint.
    expect((await buyAirtime(owner, '4567')).status).toBe('success');
    await drain();
    const mine = received('/owner');
    expect(mine).toHaveLength(1);
    expect(JSON.parse(mine[0].body)).toEqual({
      id: `evt_purchase_failed_${tx.id}`,
      type: 'purchase.failed',
      created: expect.any(String),
      data: { transactionId: tx.id, reference: tx.reference, service: 'airtime', amount: tx.amount, refunded: tx.amount, status: 'failed' },
    });
    expectSigned(mine[0]);
    // Without an endpoint for the event nothing is written for it, and nothing is sent.
    expect(received('/other')).toHaveLength(0);
    expect(await fanoutJobs(sql`payload ->> 'userId' = ${other.id} AND payload ->> 'type' = 'purchase.failed'`)).toHaveLength(0);
    await expectLedgerOk(h);
  });

  it('a failure found by reconciliation sends one event: a retried delivery repeats it, a repeated fan-out job adds none', async () => {
    got.length = 0;
    answers.push(500);
    const tx = await buyAirtime(owner, '3333');
    expect(tx.status).toBe('processing');
    await drain();
    expect(received('/owner')).toHaveLength(0);
    await reconcile(h);
    expect(await refundCount(h, tx.reference)).toBe(1);
    expect(received('/owner')).toHaveLength(1);
    h.clock.advance(DELIVERY_BACKOFF_MS + 1000);
    await drain();
    const [first, retry] = received('/owner');
    expect(retry.headers['webhook-id']).toBe(`evt_purchase_failed_${tx.id}`);
    expect(retry.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(retry.body).toBe(first.body);
    expectSigned(retry);
    // The fan-out job once more (as after a lost acknowledgement), and another reconciliation: nothing more is sent.
    const jobs = await fanoutJobs(sql`payload ->> 'id' = ${`evt_purchase_failed_${tx.id}`}`);
    expect(jobs).toHaveLength(1);
    await h.app.services.jobs.enqueue(h.app.services.db, FANOUT_JOB, jobs[0].payload);
    await reconcile(h);
    expect(received('/owner')).toHaveLength(2);
    const log = await call(h, 'GET', '/_serverFn/listWebhookDeliveriesBearerDevelopers', { limit: 50 }, { token: owner.token });
    const ofIt = log.json().items.filter((d: { eventId: string }) => d.eventId === `evt_purchase_failed_${tx.id}`);
    expect(ofIt).toEqual([
      expect.objectContaining({ status: 'succeeded', attempts: 2, responseStatus: 200, eventType: 'purchase.failed' }),
    ]);
    expect(await refundCount(h, tx.reference)).toBe(1);
    await expectLedgerOk(h);
  });
});

describe('purchase.refunded', () => {
  it('a social order delivered in part sends purchase.refunded with the part given back; the purchase stays delivered', async () => {
    got.length = 0;
    const services = await call(h, 'GET', '/_serverFn/listSocialServicesBearerVTU', { platform: 'instagram' }, { token: owner.token });
    const service = services.json().items.find((s: { service_id: string }) => s.service_id === 'ig-followers');
    const quantity = 1000;
    const q = await call(
      h,
      'POST',
      '/_serverFn/quotePurchaseBearerVTU',
      { service: 'social', plan_id: service.service_id, quantity },
      {
        token: owner.token,
      },
    );
    expect(q.statusCode, q.body).toBe(200);
    const before = await walletBalance(h, owner.id);
    const res = await call(
      h,
      'POST',
      '/_serverFn/orderSocialBearerVTU',
      { service_id: service.service_id, link: 'https://instagram.com/p/hooks6464', quantity, amount: q.json().total, pin: PIN },
      { token: owner.token },
    );
    expect(res.statusCode, res.body).toBe(200);
    const tx = res.json().transaction;
    expect(tx).toMatchObject({ status: 'success', social: { delivered: 600, remains: 400 } });
    expect(tx.social.refunded).toBeGreaterThan(0);
    await drain();
    const mine = received('/owner');
    expect(mine).toHaveLength(1);
    const event = JSON.parse(mine[0].body);
    expect(event).toMatchObject({
      id: `evt_purchase_refunded_${tx.id}`,
      type: 'purchase.refunded',
      data: { transactionId: tx.id, reference: tx.reference, service: 'social', amount: tx.amount, status: 'success' },
    });
    expect(event.data.refunded).toBeCloseTo(tx.social.refunded, 2);
    // What the event says came back is what the wallet got back.
    expect(await walletBalance(h, owner.id)).toBeCloseTo(before - tx.amount + event.data.refunded, 2);
    expectSigned(mine[0]);
    await reconcile(h);
    expect(received('/owner')).toHaveLength(1);
    await expectLedgerOk(h);
  });

  it('a cancelled flight sends purchase.refunded with the fare less its fee, once however often it is cancelled', async () => {
    got.length = 0;
    const day = new Date(h.clock.now().getTime() + 21 * 86_400_000).toISOString().slice(0, 10);
    const search = await call(
      h,
      'POST',
      '/_serverFn/searchFlightsBearerVTU',
      { origin: 'LOS', destination: 'ABV', departure_date: day, adults: 1 },
      { token: owner.token },
    );
    expect(search.statusCode, search.body).toBe(200);
    const flex = search.json().items.find((o: { refundable: boolean }) => o.refundable);
    const traveller = { title: 'mr', first_name: 'Ade', last_name: 'Bello', date_of_birth: '1990-04-01', type: 'adult' };
    const booking = { offer_id: flex.offer_id, passengers: [traveller], email: 'ade@example.com', phone: mtn('4567') };
    const res = await call(
      h,
      'POST',
      '/_serverFn/bookFlightBearerVTU',
      { ...booking, amount: flex.price, pin: PIN },
      { token: owner.token },
    );
    expect(res.statusCode, res.body).toBe(200);
    const tx = res.json().transaction;
    expect(tx.status).toBe('success');
    const cancel = () => call(h, 'POST', '/_serverFn/cancelFlightBookingBearerVTU', { id: tx.id, pin: PIN }, { token: owner.token });
    const done = await cancel();
    expect(done.statusCode, done.body).toBe(200);
    expect((await cancel()).statusCode).toBe(200);
    await drain();
    const mine = received('/owner');
    expect(mine).toHaveLength(1);
    const { refund } = done.json().cancellation;
    expect(JSON.parse(mine[0].body)).toMatchObject({
      id: `evt_purchase_refunded_${tx.id}`,
      type: 'purchase.refunded',
      data: { transactionId: tx.id, reference: tx.reference, service: 'flights', amount: tx.amount, refunded: refund, status: 'success' },
    });
    expectSigned(mine[0]);
    await expectLedgerOk(h);
  });
});
