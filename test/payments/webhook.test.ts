import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, expectLedgerOk, signIn, usingPostgres, type Harness } from '../helpers/harness.js';
import { balance, chargeSuccess, count, createIntent, postRaw, sandboxPay, sign, topupCredits, user } from './helpers.js';

/**
 * The processor webhook (spec 4.11, 5.7, 6): signature before parsing, store + 200, credit in a job, exactly
 * once whatever arrives. Concurrency cases are meaningful on PostgreSQL (TEST_DATABASE_URL); on PGlite they
 * still run, serialised.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const events = (ref: string) => count(h, sql`SELECT count(*)::int AS n FROM processor_events WHERE reference = ${ref}`);
const eventOf = async (ref: string) =>
  (
    (await h.app.services.db.execute(
      sql`SELECT status, outcome, deliveries FROM processor_events WHERE reference = ${ref}`,
    )) as unknown as { rows: { status: string; outcome: string; deliveries: number }[] }
  ).rows;

describe('signature', () => {
  it('refuses a bad signature with 401 and stores nothing', async () => {
    const body = chargeSuccess('top_bad_sig', 100000);
    const r = await postRaw(
      h,
      body,
      sign(body).replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
    );
    expect(r.statusCode).toBe(401);
    expect(r.json().error.code).toBe('UNAUTHENTICATED');
    expect(await events('top_bad_sig')).toBe(0);
  });

  it('refuses a missing signature with 401', async () => {
    const r = await postRaw(h, chargeSuccess('top_no_sig', 100000));
    expect(r.statusCode).toBe(401);
    expect(await events('top_no_sig')).toBe(0);
  });

  it('refuses a signature computed over a re-serialised body (the raw bytes are what count)', async () => {
    const raw = `{ "event": "charge.success",\n  "data": { "reference": "top_reser", "amount": 100000, "status": "success" } }`;
    const reserialised = JSON.stringify(JSON.parse(raw));
    expect(reserialised).not.toBe(raw);
    const r = await postRaw(h, raw, sign(reserialised));
    expect(r.statusCode).toBe(401);
    expect(await events('top_reser')).toBe(0);
  });

  it('checks the signature before parsing: junk with a bad signature is 401, junk correctly signed is 400', async () => {
    expect((await postRaw(h, '{not json', 'deadbeef')).statusCode).toBe(401);
    const junk = '{not json';
    const r = await postRaw(h, junk, sign(junk));
    expect(r.statusCode).toBe(400);
    expect((await postRaw(h, '[1,2]', sign('[1,2]'))).statusCode).toBe(400);
  });

  it('accepts a correctly signed body whatever its content type', async () => {
    const u = await user(h);
    const i = await createIntent(h, u, 300);
    const body = chargeSuccess(i.reference, 30000);
    const r = await postRaw(h, body, sign(body).toUpperCase(), { 'content-type': 'text/plain' });
    expect(r.statusCode).toBe(200);
    await h.app.services.jobs.drain();
    expect(await balance(h, u)).toBe(300);
    const i2 = await createIntent(h, u, 200);
    const body2 = chargeSuccess(i2.reference, 20000);
    const bare = await h.app.inject({
      method: 'POST',
      url: '/api/public/payments/webhook/processor',
      headers: { 'x-processor-signature': sign(body2) },
      payload: Buffer.from(body2),
    });
    expect(bare.statusCode).toBe(200);
    await h.app.services.jobs.drain();
    expect(await balance(h, u)).toBe(500);
  });
});

describe('storage', () => {
  it('a first delivery writes the event and exactly the job enqueue() writes; a repeat adds neither', async () => {
    const u = await user(h);
    const i = await createIntent(h, u, 400);
    const body = chargeSuccess(i.reference, 40000);
    expect((await postRaw(h, body, sign(body))).statusCode).toBe(200);
    expect((await postRaw(h, body, sign(body))).statusCode).toBe(200);
    const stored = (
      (await h.app.services.db.execute(
        sql`SELECT e.id::text AS event_id, e.deliveries, e.received_at, j.queue, j.payload, j.status, j.run_at, j.attempts, j.max_attempts, j.singleton_key, j.created_at
            FROM processor_events e JOIN jobs j ON j.payload->>'eventId' = e.id::text WHERE e.reference = ${i.reference}`,
      )) as unknown as { rows: Record<string, unknown>[] }
    ).rows;
    expect(stored).toHaveLength(1);
    const [r] = stored;
    expect(r).toMatchObject({
      deliveries: 2,
      queue: 'payments.processEvent',
      payload: { eventId: r.event_id },
      status: 'queued',
      attempts: 0,
      max_attempts: 8,
      singleton_key: `processor-event:${r.event_id}`,
    });
    expect(new Date(r.run_at as string).getTime()).toBe(new Date(r.received_at as string).getTime());
    expect(new Date(r.created_at as string).getTime()).toBe(h.clock.now().getTime());
    await h.app.services.jobs.drain();
    expect(await balance(h, u)).toBe(400);
  });
});

describe('outcomes', () => {
  it('stores an unknown reference as unmatched, credits nothing, shows it to operators', async () => {
    const body = chargeSuccess('top_unknown_ref_1', 500000);
    expect((await postRaw(h, body, sign(body))).statusCode).toBe(200);
    await h.app.services.jobs.drain();
    expect(await eventOf('top_unknown_ref_1')).toEqual([expect.objectContaining({ status: 'unmatched' })]);
    expect(await topupCredits(h, 'top_unknown_ref_1')).toBe(0);
    const admin = await signIn(h, 'admin@example.com');
    const s = await call(
      h,
      'GET',
      '/_serverFn/adminSearchPaymentsBearerAdmin',
      { kind: 'events', status: 'unmatched' },
      { token: admin.token },
    );
    expect(s.statusCode).toBe(200);
    expect(s.json().items.some((e: { reference: string }) => e.reference === 'top_unknown_ref_1')).toBe(true);
    await expectLedgerOk(h);
  });

  it('credits the amount actually paid when it differs from the intent', async () => {
    const u = await user(h);
    const i = await createIntent(h, u, 1000);
    const body = chargeSuccess(i.reference, 80000); // ₦800 paid against ₦1,000 asked
    expect((await postRaw(h, body, sign(body))).statusCode).toBe(200);
    await h.app.services.jobs.drain();
    expect(await balance(h, u)).toBe(800);
    const got = await call(h, 'GET', '/_serverFn/getTopupIntentBearerWallet', { reference: i.reference }, { token: u.token });
    expect(got.json()).toMatchObject({ status: 'success', amount: 1000, amountPaid: 800 });
    expect((await eventOf(i.reference))[0].outcome).toMatch(/paid ₦800\.00 against ₦1,000\.00/);
    await expectLedgerOk(h);
  });

  it('ignores non-success events and failed charges (stored, nothing credited)', async () => {
    const u = await user(h);
    const i = await createIntent(h, u, 500);
    const transfer = JSON.stringify({ event: 'transfer.success', data: { reference: i.reference, amount: 50000, status: 'success' } });
    const failed = chargeSuccess(i.reference, 50000, { status: 'failed' });
    for (const b of [transfer, failed]) expect((await postRaw(h, b, sign(b))).statusCode).toBe(200);
    await h.app.services.jobs.drain();
    const ev = await eventOf(i.reference);
    expect(ev).toHaveLength(2);
    expect(ev.every((e) => e.status === 'ignored')).toBe(true);
    expect(await balance(h, u)).toBe(0);
    expect(await topupCredits(h, i.reference)).toBe(0);
  });

  it('a browser redirect never credits: the callback URL is only a redirect', async () => {
    const u = await user(h);
    const r = await call(
      h,
      'POST',
      '/_serverFn/startProcessorTopupBearerPayments',
      { amount: 700, email: u.email, callbackUrl: `${h.config.publicUrl}/done` },
      { token: u.token },
    );
    expect(r.statusCode).toBe(200);
    const code = r.json().accessCode as string;
    // Abandon at checkout: the browser is redirected to the callback with the reference, nothing is paid.
    const page = await h.app.inject({
      method: 'POST',
      url: `/sandbox/processor/checkout/${code}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'action=abandon',
    });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toContain(`reference=${r.json().reference}`);
    await h.app.services.jobs.drain();
    expect(await balance(h, u)).toBe(0);
  });
});

describe('exactly once', () => {
  it('50 concurrent copies of one signed webhook credit once', async () => {
    const u = await user(h);
    const i = await createIntent(h, u, 2500);
    const body = chargeSuccess(i.reference, 250000);
    const sig = sign(body);
    const res = await Promise.all(Array.from({ length: 50 }, () => postRaw(h, body, sig)));
    expect(res.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    expect(await eventOf(i.reference)).toEqual([expect.objectContaining({ deliveries: 50 })]);
    await Promise.all([h.app.services.jobs.drain(), h.app.services.jobs.drain(), h.app.services.jobs.drain()]);
    expect(await balance(h, u)).toBe(2500);
    expect(await topupCredits(h, i.reference)).toBe(1);
    await expectLedgerOk(h);
  });

  it('50 differently-encoded deliveries of one charge, processed by concurrent workers, credit once', async () => {
    const u = await user(h);
    const i = await createIntent(h, u, 1200);
    // Each body differs in bytes (a retry counter), so each is its own stored event and job: only the ledger's
    // unique reference and the settlement's unique key can stop a second credit.
    const bodies = Array.from({ length: 50 }, (_, n) => chargeSuccess(i.reference, 120000, { attempt: n }));
    const res = await Promise.all(bodies.map((b) => postRaw(h, b, sign(b))));
    expect(res.every((r) => r.statusCode === 200)).toBe(true);
    expect(await events(i.reference)).toBe(50);
    await Promise.all(Array.from({ length: 5 }, () => h.app.services.jobs.drain()));
    expect(await balance(h, u)).toBe(1200);
    expect(await topupCredits(h, i.reference)).toBe(1);
    const ev = await eventOf(i.reference);
    expect(ev.filter((e) => e.status === 'credited')).toHaveLength(1);
    expect(ev.filter((e) => e.status === 'duplicate')).toHaveLength(49);
    await expectLedgerOk(h);
  });

  it('verifyProcessorTopup racing the webhook credits once', async () => {
    const u = await user(h);
    const i = await createIntent(h, u, 4000);
    const p = await sandboxPay(h, { reference: i.reference, outcome: 'success', webhook: true });
    expect(p.json().webhook.delivered).toBe(true);
    const verify = () => call(h, 'POST', '/_serverFn/verifyProcessorTopupBearerPayments', { reference: i.reference }, { token: u.token });
    const [v1, , v2, , v3] = await Promise.all([verify(), h.app.services.jobs.drain(), verify(), h.app.services.jobs.drain(), verify()]);
    for (const v of [v1, v2, v3]) {
      expect(v.statusCode).toBe(200);
      expect(v.json().status).toBe('success');
    }
    expect(await balance(h, u)).toBe(4000);
    expect(await topupCredits(h, i.reference)).toBe(1);
    await expectLedgerOk(h);
  });

  it.skipIf(!usingPostgres)('two server instances on one database receiving the same webhook credit once', async () => {
    const h2 = await createHarness({ databaseUrl: h.config.databaseUrl, clock: h.clock });
    try {
      const u = await user(h);
      const i = await createIntent(h, u, 3300);
      const body = chargeSuccess(i.reference, 330000);
      const sig = sign(body);
      const res = await Promise.all(Array.from({ length: 20 }, (_, n) => postRaw(n % 2 ? h2 : h, body, sig)));
      expect(res.every((r) => r.statusCode === 200)).toBe(true);
      // A second, differently-encoded copy reaches the other instance: two jobs, two workers.
      const other = chargeSuccess(i.reference, 330000, { redelivery: true });
      expect((await postRaw(h2, other, sign(other))).statusCode).toBe(200);
      await Promise.all([h.app.services.jobs.drain(), h2.app.services.jobs.drain(), h2.app.services.jobs.drain()]);
      expect(await balance(h, u)).toBe(3300);
      expect(await topupCredits(h, i.reference)).toBe(1);
      await expectLedgerOk(h);
    } finally {
      await h2.app.close();
      await h2.database.close();
    }
  });
});
