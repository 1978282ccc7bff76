import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/kernel/clock.js';
import { BACKLOG_CHECK_MS } from '../../src/modules/payments/webhook-events.js';
import { createHarness, expectLedgerOk, type Harness } from '../helpers/harness.js';
import { balance, chargeSuccess, count, createIntent, postRaw, sign, topupCredits, user } from './helpers.js';

/**
 * Webhook credits in batches (issue 31): the credit lanes post a batch in one transaction with each event keeping
 * its own outcome, and the webhook pushes back with 429 + Retry-After (storing nothing) while credits are behind.
 * On PostgreSQL (TEST_DATABASE_URL) the concurrent drains really run side by side.
 */
let h: Harness;
const clock = new TestClock();
beforeAll(async () => {
  // Small batches, so concurrent drains split the work into several batches.
  h = await createHarness({
    clock,
    env: { WEBHOOK_CREDIT_BATCH: '4', WEBHOOK_BACKLOG_MAX_PENDING: '40', WEBHOOK_BACKLOG_MAX_AGE_MS: '150' },
  });
});
afterAll(async () => h?.close());

const deliver = (body: string) => postRaw(h, body, sign(body));
const eventsOf = async (ref: string) =>
  (
    (await h.app.services.db.execute(
      sql`SELECT status, outcome, deliveries FROM processor_events WHERE reference = ${ref} ORDER BY received_at, id`,
    )) as unknown as { rows: { status: string; outcome: string; deliveries: number }[] }
  ).rows;
/** Past the backlog reading's reuse, so the next webhook reads the backlog afresh. */
const freshReading = () => clock.advance(BACKLOG_CHECK_MS + 1);

describe('credits in batches', () => {
  it('a batch credits each event once; a duplicate delivered during the batch credits nothing more', async () => {
    const users = [await user(h), await user(h), await user(h)];
    const intents = await Promise.all(users.map((u, i) => createIntent(h, u, 100 * (i + 1))));
    const bodies = intents.map((i, n) => chargeSuccess(i.reference, 10000 * (n + 1)));
    for (const b of bodies) expect((await deliver(b)).statusCode).toBe(200);
    // The same charge again, byte for byte and re-encoded, while the batch is being credited.
    const reencoded = JSON.stringify(JSON.parse(bodies[0]), null, 2);
    const [, same, other] = await Promise.all([h.app.services.jobs.drain(), deliver(bodies[0]), deliver(reencoded)]);
    expect([same.statusCode, other.statusCode]).toEqual([200, 200]);
    await h.app.services.jobs.drain();
    expect(await Promise.all(users.map((u) => balance(h, u)))).toEqual([100, 200, 300]);
    for (const i of intents) expect(await topupCredits(h, i.reference)).toBe(1);
    const first = await eventsOf(intents[0].reference);
    expect(first.map((e) => e.status).sort()).toEqual(['credited', 'duplicate']);
    // Three deliveries over two stored events (the byte-identical one counted on the first); whichever of the two the
    // batch reached first is the one credited.
    expect(first.map((e) => e.deliveries).sort()).toEqual([1, 2]);
    await expectLedgerOk(h);
  });

  it('a batch with one bad event credits the others; the bad one fails alone and is retried', async () => {
    const users = [await user(h), await user(h), await user(h)];
    const intents = await Promise.all(users.map((u) => createIntent(h, u, 150)));
    // The middle charge's amount does not fit the ledger's bigint: its posting fails in the database.
    const bodies = intents.map((i, n) => chargeSuccess(i.reference, n === 1 ? ('99999999999999999999' as unknown as number) : 15000));
    for (const b of bodies) expect((await deliver(b)).statusCode).toBe(200);
    await h.app.services.jobs.drain();
    expect(await Promise.all(users.map((u) => balance(h, u)))).toEqual([150, 0, 150]);
    expect((await eventsOf(intents[0].reference))[0].status).toBe('credited');
    expect((await eventsOf(intents[2].reference))[0].status).toBe('credited');
    expect((await eventsOf(intents[1].reference))[0].status).toBe('received');
    const job = await count(
      h,
      sql`SELECT count(*)::int AS n FROM jobs j JOIN processor_events e ON j.payload ->> 'eventId' = e.id::text
          WHERE e.reference = ${intents[1].reference} AND j.status = 'queued' AND j.attempts = 1 AND j.last_error IS NOT NULL`,
    );
    expect(job).toBe(1);
    await expectLedgerOk(h);
    // Out of the later tests' backlog (its retry would come due as their clock moves).
    await h.app.services.db.execute(
      sql`UPDATE jobs SET status = 'dead' FROM processor_events e WHERE jobs.payload ->> 'eventId' = e.id::text AND e.reference = ${intents[1].reference}`,
    );
  });

  it('concurrent lanes on many events for few wallets credit each charge exactly once', async () => {
    const users = [await user(h), await user(h)];
    const intents = [];
    for (let n = 0; n < 16; n++) intents.push(await createIntent(h, users[n % 2], 100));
    const bodies = intents.map((i) => chargeSuccess(i.reference, 10000));
    // Each charge delivered twice with different bytes: two events per reference, in different batches.
    const all = [...bodies, ...bodies.map((b) => JSON.stringify(JSON.parse(b), null, 1))];
    const res = await Promise.all(all.map(deliver));
    expect(res.map((r) => r.statusCode)).toEqual(all.map(() => 200));
    await Promise.all(Array.from({ length: 4 }, () => h.app.services.jobs.drain()));
    await h.app.services.jobs.drain();
    expect(await Promise.all(users.map((u) => balance(h, u)))).toEqual([800, 800]);
    for (const i of intents) {
      expect(await topupCredits(h, i.reference)).toBe(1);
      expect((await eventsOf(i.reference)).map((e) => e.status).sort()).toEqual(['credited', 'duplicate']);
    }
    await expectLedgerOk(h);
  });
});

describe('admission control', () => {
  it('answers 429 with Retry-After and stores nothing while the oldest credit waits too long; 200 below it', async () => {
    await h.app.services.jobs.drain();
    const u = await user(h);
    const [a, b, c] = [await createIntent(h, u, 100), await createIntent(h, u, 100), await createIntent(h, u, 100)];
    freshReading();
    expect((await deliver(chargeSuccess(a.reference, 10000))).statusCode).toBe(200);
    // Nobody credits: the event's job has waited past WEBHOOK_BACKLOG_MAX_AGE_MS (150 ms, the default).
    clock.advance(501);
    const refused = await deliver(chargeSuccess(b.reference, 10000));
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json().error.code).toBe('RATE_LIMITED');
    expect(await eventsOf(b.reference)).toEqual([]);
    // Refusing asks nothing of the database: a redelivery of the stored event is refused too, and counted once it
    // comes back while credits keep up.
    expect((await deliver(chargeSuccess(a.reference, 10000))).statusCode).toBe(429);
    expect((await eventsOf(a.reference))[0].deliveries).toBe(1);
    // Credits caught up: accepted again.
    await h.app.services.jobs.drain();
    freshReading();
    expect((await deliver(chargeSuccess(a.reference, 10000))).statusCode).toBe(200);
    expect((await eventsOf(a.reference))[0].deliveries).toBe(2);
    expect((await deliver(chargeSuccess(b.reference, 10000))).statusCode).toBe(200);
    expect((await deliver(chargeSuccess(c.reference, 10000))).statusCode).toBe(200);
    await h.app.services.jobs.drain();
    expect(await balance(h, u)).toBe(300);
    await expectLedgerOk(h);
  });

  it('answers 429 once WEBHOOK_BACKLOG_MAX_PENDING credits are due, however young', async () => {
    await h.app.services.jobs.drain();
    const u = await user(h);
    const intents = [];
    for (let n = 0; n < 41; n++) intents.push(await createIntent(h, u, 100));
    freshReading();
    for (const i of intents.slice(0, 40)) expect((await deliver(chargeSuccess(i.reference, 10000))).statusCode).toBe(200);
    freshReading();
    const last = intents[40].reference;
    const refused = await deliver(chargeSuccess(last, 10000));
    expect(refused.statusCode).toBe(429);
    expect(await eventsOf(last)).toEqual([]);
    await h.app.services.jobs.drain();
    freshReading();
    expect((await deliver(chargeSuccess(last, 10000))).statusCode).toBe(200);
    await h.app.services.jobs.drain();
    expect(await balance(h, u)).toBe(4100);
    await expectLedgerOk(h);
  });

  it('checks the signature first: a bad signature is 401 even while credits are behind', async () => {
    const u = await user(h);
    const i = await createIntent(h, u, 100);
    freshReading();
    expect((await deliver(chargeSuccess(i.reference, 10000))).statusCode).toBe(200);
    clock.advance(501);
    const body = chargeSuccess(`${i.reference}_x`, 10000);
    expect((await postRaw(h, body, 'deadbeef')).statusCode).toBe(401);
    expect((await deliver(body)).statusCode).toBe(429);
    await h.app.services.jobs.drain();
    expect(await balance(h, u)).toBe(100);
    expect(await eventsOf(`${i.reference}_x`)).toEqual([]);
    await expectLedgerOk(h);
  });
});
