import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { one, rows } from '../../src/db/client.js';
import { buyer, PIN, setKycTier, walletBalance } from '../helpers/factories.js';
import { call, createHarness, expectLedgerOk, usingPostgres, type Harness, type TestUser } from '../helpers/harness.js';
import { pdfText } from '../helpers/statement-files.js';
import { statementsOfEither } from '../helpers/statements.js';

// Issue 45, recharge card printing: a reseller's batch of airtime e-PINs, paid in one posting at the level's price,
// PINs encrypted at rest and shown only to the buyer; a failed or partial batch refunds what was not delivered, once.
let h: Harness;
let reseller: TestUser;
let other: TestUser;
const E = (name: string) => `/_serverFn/${name}BearerVTU`;
const db = () => h.app.services.db;
const setLevel = (u: TestUser, level: string) =>
  db().execute(sql`INSERT INTO vtu_customer_levels (user_id, level, source, updated_at) VALUES (${u.id}, ${level}, 'grant', now())
                   ON CONFLICT (user_id) DO UPDATE SET level = EXCLUDED.level`);
const buy = (u: TestUser, data: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call(h, 'POST', E('buyEpins'), { network: 'mtn', denomination: 100, pin: PIN, ...data }, { token: u.token, headers });
const refunds = async (id: string) =>
  (await one<{ n: number }>(db(), sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE reference = ${`epin_refund:${id}`}`))!.n;

beforeAll(async () => {
  h = await createHarness();
  reseller = await buyer(h, 500_000);
  other = await buyer(h, 20_000);
  await setLevel(reseller, 'reseller');
  // A reseller's volume is over Tier 1's daily limit (₦50,000).
  await setKycTier(h, reseller.id, 3);
  await setLevel(other, 'agent');
}, 180_000);
afterAll(async () => h?.close());

describe('who may buy', () => {
  it('a customer at the Customer level is refused before any money moves', async () => {
    const c = await buyer(h, 5_000);
    const res = await buy(c, { quantity: 2 });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
    expect(await walletBalance(h, c.id)).toBe(5_000);
  });
});

describe('a batch of 1,000', () => {
  it('is paid in one posting at the reseller price, delivered in a handful of statements, PINs encrypted at rest', async () => {
    const before = await walletBalance(h, reseller.id);
    let res!: Awaited<ReturnType<typeof buy>>;
    const started = performance.now();
    const statements = await statementsOfEither(async () => {
      res = await buy(reseller, { quantity: 1000, businessName: 'Ade Ventures' });
    });
    const ms = performance.now() - started;
    expect(res.statusCode, res.body).toBe(200);
    const { batch, amount } = res.json();
    // Reseller: ₦100 less 2 % = ₦98 a card (the seller's price is ₦97).
    expect(batch).toMatchObject({
      status: 'delivered',
      quantity: 1000,
      delivered: 1000,
      unitPrice: 98,
      amount: 98_000,
      refunded: 0,
      paid: 98_000,
    });
    expect(batch.priceLevel).toBe('reseller');
    expect(amount).toBe(98_000);
    expect(before - (await walletBalance(h, reseller.id))).toBe(98_000);
    const postings = await rows<{ reference: string }>(
      db(),
      sql`SELECT reference FROM ledger_transactions WHERE reference LIKE ${`epin%${batch.id}`}`,
    );
    expect(postings.map((p) => p.reference)).toEqual([`epin:${batch.id}`]);
    // Not one statement per card: the cards are one INSERT.
    const cardInserts = statements.filter((s) => /INSERT INTO epin_cards/i.test(s));
    expect(cardInserts).toHaveLength(1);
    expect(statements.length, statements.join('\n---\n')).toBeLessThan(60);
    console.log(`1,000 e-PINs: ${Math.round(ms)} ms, ${statements.length} statements (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`);

    const stored = await rows<{ pin_encrypted: string; serial: string }>(
      db(),
      sql`SELECT pin_encrypted, serial FROM epin_cards WHERE batch_id = ${batch.id} ORDER BY seq`,
    );
    expect(stored).toHaveLength(1000);
    const got = await call(h, 'GET', E('getEpinBatch'), { id: batch.id }, { token: reseller.token });
    expect(got.statusCode).toBe(200);
    const cards = got.json().cards as { pin: string; serial: string }[];
    expect(cards).toHaveLength(1000);
    expect(cards[0].pin).toMatch(/^\d{17}$/);
    expect(stored[0].pin_encrypted).not.toContain(cards[0].pin);
    expect(stored[0].serial).toBe(cards[0].serial);
    await expectLedgerOk(h);

    // Shown only to the buyer.
    for (const name of ['getEpinBatch', 'downloadEpinBatch'])
      expect((await call(h, 'GET', E(name), { id: batch.id }, { token: other.token })).statusCode).toBe(404);
    const sold = await call(h, 'POST', E('markEpinsSold'), { id: batch.id, serials: [cards[0].serial] }, { token: other.token });
    expect(sold.statusCode).toBe(404);
    expect((await call(h, 'GET', E('listEpinBatches'), {}, { token: other.token })).json().items).toEqual([]);

    // The PDF and the CSV.
    const pdf = await call(h, 'GET', E('downloadEpinBatch'), { id: batch.id, format: 'pdf' }, { token: reseller.token });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain(`recharge-cards-mtn-100-${batch.id}.pdf`);
    const csv = await call(h, 'GET', E('downloadEpinBatch'), { id: batch.id, format: 'csv' }, { token: reseller.token });
    const lines = csv.body.trim().split('\r\n');
    expect(lines).toHaveLength(1001);
    expect(lines[1]).toBe(`${cards[0].serial},${cards[0].pin},mtn,100.00,*555*PIN#,Ade Ventures,`);
  }, 120_000);
});

describe('cards marked sold', () => {
  it('marks one and many, and back; the batch counts them', async () => {
    const res = await buy(reseller, { quantity: 5, network: 'glo', denomination: 200 });
    const { batch } = res.json();
    const { cards } = (await call(h, 'GET', E('getEpinBatch'), { id: batch.id }, { token: reseller.token })).json();
    const mark = (serials: string[], sold = true) =>
      call(h, 'POST', E('markEpinsSold'), { id: batch.id, serials, sold }, { token: reseller.token });
    expect((await mark([cards[0].serial])).json()).toMatchObject({ changed: 1, batch: { sold: 1 } });
    expect((await mark(cards.slice(0, 3).map((c: { serial: string }) => c.serial))).json()).toMatchObject({
      changed: 2,
      batch: { sold: 3 },
    });
    expect((await mark([cards[1].serial], false)).json()).toMatchObject({ changed: 1, batch: { sold: 2 } });
    const csv = await call(h, 'GET', E('downloadEpinBatch'), { id: batch.id, format: 'csv' }, { token: reseller.token });
    const text = csv.body;
    expect(text.split('\r\n')[1]).toMatch(/,\d{4}-\d\d-\d\dT/);
  });

  it('escapes a business name a spreadsheet would read as a formula', async () => {
    const res = await buy(reseller, { quantity: 1, businessName: '=HYPERLINK("x")' });
    const csv = await call(h, 'GET', E('downloadEpinBatch'), { id: res.json().batch.id, format: 'csv' }, { token: reseller.token });
    expect(csv.body).toContain(`"'=HYPERLINK(""x"")"`);
  });

  it('prints a business name in any letters on the card sheet (an embedded font)', async () => {
    const name = 'Ọlá Ɗanƙwambo Ventures';
    const res = await buy(reseller, { quantity: 2, businessName: name });
    expect(res.statusCode, res.body).toBe(200);
    const pdf = await call(h, 'GET', E('downloadEpinBatch'), { id: res.json().batch.id, format: 'pdf' }, { token: reseller.token });
    expect(pdf.statusCode).toBe(200);
    const text = await pdfText(pdf.rawPayload);
    const lines = text.split('\n');
    expect(lines.filter((l) => l === name.normalize('NFC'))).toHaveLength(2);
    expect(lines.filter((l) => l === 'MTN  NGN 100')).toHaveLength(2);
    // Each card's PIN (in groups of four, as dialled), its serial and the network's load code, as the buyer reads them.
    const { cards } = (await call(h, 'GET', E('getEpinBatch'), { id: res.json().batch.id }, { token: reseller.token })).json();
    expect(cards).toHaveLength(2);
    for (const c of cards as { pin: string; serial: string }[]) {
      expect(lines).toContain(c.pin.replace(/(\d{4})(?=\d)/g, '$1 '));
      expect(lines).toContain(`Serial ${c.serial}`);
    }
    expect(lines.filter((l) => l === 'Load: *555*PIN#')).toHaveLength(2);
  });
});

describe('refunds of what was not delivered', () => {
  it('a failed batch (quantity ending 11) refunds everything, once', async () => {
    const before = await walletBalance(h, reseller.id);
    const res = await buy(reseller, { quantity: 11 });
    expect(res.statusCode, res.body).toBe(200);
    const { batch, amount } = res.json();
    expect(batch).toMatchObject({ status: 'failed', delivered: 0, amount: 1078, refunded: 1078, paid: 0 });
    expect(amount).toBe(0);
    expect(await walletBalance(h, reseller.id)).toBe(before);
    expect(await refunds(batch.id)).toBe(1);
    // Asking again settles nothing twice.
    await Promise.all([1, 2, 3].map(() => h.app.services.epins.requery(batch.id)));
    expect(await refunds(batch.id)).toBe(1);
    expect((await call(h, 'GET', E('downloadEpinBatch'), { id: batch.id }, { token: reseller.token })).statusCode).toBe(409);
    await expectLedgerOk(h);
  });

  it('a partial batch (ending 22) refunds the undelivered half, once', async () => {
    const before = await walletBalance(h, reseller.id);
    const res = await buy(reseller, { quantity: 122, network: 'airtel', denomination: 500 });
    const { batch } = res.json();
    // Reseller: ₦500 less 2 % = ₦490; 61 of 122 delivered.
    expect(batch).toMatchObject({ status: 'partial', delivered: 61, amount: 59_780, refunded: 29_890, paid: 29_890 });
    expect(before - (await walletBalance(h, reseller.id))).toBe(29_890);
    expect(await refunds(batch.id)).toBe(1);
    expect((await call(h, 'GET', E('getEpinBatch'), { id: batch.id }, { token: reseller.token })).json().cards).toHaveLength(61);
    await expectLedgerOk(h);
  });

  it('a pending batch (ending 33) settled by concurrent polls and the job refunds once', async () => {
    const before = await walletBalance(h, reseller.id);
    const res = await buy(reseller, { quantity: 33, denomination: 1000 });
    const { batch } = res.json();
    expect(batch.status).toBe('processing');
    expect(before - (await walletBalance(h, reseller.id))).toBe(33 * 980);
    const polls = await Promise.all(
      Array.from({ length: 6 }, () => call(h, 'GET', E('getEpinBatch'), { id: batch.id }, { token: reseller.token })),
    );
    h.clock.advance(120_000);
    await h.app.services.jobs.drain();
    for (const p of polls) expect(p.statusCode).toBe(200);
    const after = (await call(h, 'GET', E('getEpinBatch'), { id: batch.id }, { token: reseller.token })).json();
    expect(after.batch).toMatchObject({ status: 'partial', delivered: 16, refunded: 17 * 980 });
    expect(after.cards).toHaveLength(16);
    expect(await refunds(batch.id)).toBe(1);
    expect(before - (await walletBalance(h, reseller.id))).toBe(16 * 980);
    await expectLedgerOk(h);
  });
});

describe('refunds of a large batch', () => {
  // The seller's magic endings are quantity % 100 (docs/sandbox.md), so 1,000 itself is never magic: 922 (half
  // delivered) and 911 (none) are the largest refunding batches under the 1,000-card ceiling.
  let big: TestUser;
  beforeAll(async () => {
    big = await buyer(h, 250_000);
    await setLevel(big, 'reseller');
    await setKycTier(h, big.id, 3);
  });

  it('a partial batch of 922 refunds its 461 undelivered cards once, whoever asks again', async () => {
    const before = await walletBalance(h, big.id);
    const res = await buy(big, { quantity: 922 });
    expect(res.statusCode, res.body).toBe(200);
    const { batch, amount } = res.json();
    // Reseller: ₦98 a card; 461 delivered, 461 refunded.
    expect(batch).toMatchObject({ status: 'partial', quantity: 922, delivered: 461, amount: 90_356, refunded: 45_178, paid: 45_178 });
    expect(amount).toBe(45_178);
    expect(before - (await walletBalance(h, big.id))).toBe(45_178);
    expect(await refunds(batch.id)).toBe(1);
    // Concurrent requeries, reads and the job settle nothing twice.
    await Promise.all([
      ...[1, 2, 3, 4].map(() => h.app.services.epins.requery(batch.id)),
      ...[1, 2].map(() => call(h, 'GET', E('getEpinBatch'), { id: batch.id }, { token: big.token })),
    ]);
    h.clock.advance(120_000);
    await h.app.services.jobs.drain();
    expect(await refunds(batch.id)).toBe(1);
    expect(before - (await walletBalance(h, big.id))).toBe(45_178);
    const [refund] = await rows<{ amount: string }>(
      db(),
      sql`SELECT e.amount::text AS amount FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
          JOIN accounts a ON a.id = e.account_id
          WHERE t.reference = ${`epin_refund:${batch.id}`} AND a.user_id = ${big.id}::uuid`,
    );
    expect(BigInt(refund.amount)).toBe(4_517_800n);
    const stored = await one<{ n: number }>(db(), sql`SELECT count(*)::int AS n FROM epin_cards WHERE batch_id = ${batch.id}`);
    expect(stored!.n).toBe(461);
    await expectLedgerOk(h);
  }, 120_000);

  it('a failed batch of 911 refunds everything once', async () => {
    const before = await walletBalance(h, big.id);
    const res = await buy(big, { quantity: 911, network: 'glo', denomination: 200 });
    expect(res.statusCode, res.body).toBe(200);
    // Reseller: ₦200 less 2 % = ₦196 a card.
    expect(res.json().batch).toMatchObject({ status: 'failed', delivered: 0, amount: 178_556, refunded: 178_556, paid: 0 });
    expect(await walletBalance(h, big.id)).toBe(before);
    await Promise.all([1, 2, 3].map(() => h.app.services.epins.requery(res.json().batch.id)));
    expect(await refunds(res.json().batch.id)).toBe(1);
    expect(await walletBalance(h, big.id)).toBe(before);
    await expectLedgerOk(h);
  }, 120_000);
});

describe('idempotency', () => {
  it('a concurrent double submit with one Idempotency-Key buys once', async () => {
    const before = await walletBalance(h, reseller.id);
    const headers = { 'idempotency-key': `epins-${Date.now()}` };
    const [a, b] = await Promise.all([buy(reseller, { quantity: 10 }, headers), buy(reseller, { quantity: 10 }, headers)]);
    const ok = [a, b].filter((r) => r.statusCode === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of [a, b]) expect([200, 409]).toContain(r.statusCode);
    const ids = new Set(ok.map((r) => r.json().batch.id));
    expect(ids.size).toBe(1);
    expect(before - (await walletBalance(h, reseller.id))).toBe(980);
    const n = await one<{ n: number }>(
      db(),
      sql`SELECT count(*)::int AS n FROM epin_batches WHERE user_id = ${reseller.id} AND quantity = 10`,
    );
    expect(n!.n).toBe(1);
    // A retry after both answered replays the answer.
    const again = await buy(reseller, { quantity: 10 }, headers);
    expect(again.statusCode).toBe(200);
    expect(again.json().batch.id).toBe([...ids][0]);
    expect(before - (await walletBalance(h, reseller.id))).toBe(980);
    await expectLedgerOk(h);
  });

  it('refuses a batch the wallet cannot pay for, moving nothing', async () => {
    const poor = await buyer(h, 1_000);
    await setLevel(poor, 'agent');
    const res = await buy(poor, { quantity: 20 });
    expect(res.json().error.code).toBe('INSUFFICIENT_FUNDS');
    expect(await walletBalance(h, poor.id)).toBe(1_000);
    expect((await call(h, 'GET', E('listEpinBatches'), {}, { token: poor.token })).json().items).toEqual([]);
  });
});

describe('the webhook', () => {
  it("sends epin.batch_ready to the buyer's endpoint once the batch settles", async () => {
    const made = await call(
      h,
      'POST',
      '/_serverFn/createWebhookEndpointBearerDevelopers',
      { url: 'http://127.0.0.1:9/hook', events: ['epin.batch_ready'] },
      { token: reseller.token },
    );
    expect(made.statusCode, made.body).toBe(200);
    const { batch } = (await buy(reseller, { quantity: 22 })).json();
    await h.app.services.jobs.drain();
    const sent = await rows<{ event_type: string; body: string }>(
      db(),
      sql`SELECT event_type, body FROM webhook_deliveries WHERE event_id = ${`evt_epin_batch_ready_${batch.id}`}`,
    );
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0].body)).toMatchObject({
      type: 'epin.batch_ready',
      data: { batchId: batch.id, quantity: 22, delivered: 11, refunded: 11 * 98, status: 'partial' },
    });
  });
});
