import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { call, createHarness, expectLedgerOk, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { approvalThresholds, setKycTier } from '../helpers/factories.js';
import { buyer, getTx, PIN, reconcile, refundCount, requestIdOf, simulatorOrders, VTU_ENV, walletBalance } from './helpers.js';

/**
 * Flights (issue 32 item 4) through the API and provider C's simulator: search answers held offers at retail prices;
 * a booking is a purchase like any other (the contact phone's last four digits choose the outcome): ticketed with a
 * PNR and e-tickets, a definite failure refunded once, pending settled by reconciliation, a timeout left processing
 * and never refunded blindly; a fare that moved is PRICE_CHANGED before any debit; a ticketed booking is cancelled
 * by its fare's rules with the refund credited once.
 */
let h: Harness;
let u: TestUser;
let admin: TestUser;
beforeAll(async () => {
  h = await createHarness({ env: VTU_ENV });
  u = await buyer(h, 3_000_000);
  // Tier 3: fares pass the Tier 1 daily limit.
  await setKycTier(h, u.id, 3);
  admin = await signIn(h, 'admin@example.com');
});
afterAll(async () => h.close());

const day = (n: number) => new Date(h.clock.now().getTime() + n * 86_400_000).toISOString().slice(0, 10);
const phone = (last4: string) => `0803123${last4}`;
let route = 0;
const DESTINATIONS = ['ABV', 'PHC', 'KAN', 'ENU', 'QOW', 'CBQ', 'BNI', 'QUO', 'KAD', 'ACC'];

async function search(who: TestUser = u, over: Record<string, unknown> = {}) {
  const res = await call(
    h,
    'POST',
    '/_serverFn/searchFlightsBearerVTU',
    { origin: 'LOS', destination: DESTINATIONS[route++ % DESTINATIONS.length], departure_date: day(20 + route), adults: 2, ...over },
    { token: who.token },
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as any[];
}

const travellers = [
  { title: 'mr', first_name: 'Ade', last_name: 'Bello', date_of_birth: '1990-04-01', type: 'adult' },
  { title: 'mrs', first_name: 'Ngozi', last_name: 'Bello', date_of_birth: '1992-09-12', type: 'adult' },
];

function book(offer: any, last4: string, over: Record<string, unknown> = {}, who: TestUser = u) {
  return call(
    h,
    'POST',
    '/_serverFn/bookFlightBearerVTU',
    {
      offer_id: offer.offer_id,
      passengers: travellers,
      email: 'ade@example.com',
      phone: phone(last4),
      amount: offer.price,
      pin: PIN,
      ...over,
    },
    { token: who.token },
  );
}

async function booked(offer: any, last4: string) {
  const before = await walletBalance(h, u.id);
  const res = await book(offer, last4);
  expect(res.statusCode, res.body).toBe(200);
  return { tx: res.json().transaction, before };
}

describe('search', () => {
  it('answers offers at retail prices with fare rules and an expiry, held for the caller', async () => {
    const offers = await search();
    expect(offers).toHaveLength(3);
    for (const o of offers) {
      expect(o.offer_id).toMatch(/^fof_/);
      expect(o.price).toBeGreaterThan(0);
      expect(o.segments[0].origin).toBe('LOS');
      expect(new Date(o.expires_at).getTime()).toBeGreaterThan(h.clock.now().getTime());
      expect(o.passengers).toEqual({ adults: 2, children: 0, infants: 0 });
    }
    expect(offers.map((o) => o.refundable)).toEqual([true, true, false]);
    const airports = await call(h, 'GET', '/_serverFn/listFlightAirportsBearerVTU', undefined, { token: u.token });
    expect(airports.json().items.map((a: any) => a.code)).toContain('LOS');
  });

  it('refuses a search with more infants than adults, or to the same airport', async () => {
    for (const over of [{ adults: 1, infants: 2 }, { destination: 'LOS' }]) {
      const res = await call(
        h,
        'POST',
        '/_serverFn/searchFlightsBearerVTU',
        { origin: 'LOS', destination: 'ABV', departure_date: day(5), ...over },
        { token: u.token },
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
    }
  });
});

describe('booking: the purchase path', () => {
  it('tickets: debits the retail price once, answers the PNR and one e-ticket per traveller', async () => {
    const [offer] = await search();
    const { tx, before } = await booked(offer, '4567');
    expect(tx.status).toBe('success');
    expect(tx.service).toBe('flights');
    expect(tx.amount).toBe(offer.price);
    expect(tx.flight.pnr).toMatch(/^[A-Z2-9]{6}$/);
    expect(tx.flight.tickets.map((k: any) => k.passenger)).toEqual(['Ade Bello', 'Ngozi Bello']);
    expect(tx.flight.tickets.every((k: any) => /^\d{13}$/.test(k.number))).toBe(true);
    expect(await walletBalance(h, u.id)).toBeCloseTo(before - offer.price, 2);
    expect((await getTx(h, u, tx.id)).flight.pnr).toBe(tx.flight.pnr);
    // The signed receipt names the trip and the PNR; the public page masks the PNR and the travellers.
    const signed = await call(h, 'POST', '/_serverFn/signReceiptBearerReceipts', { reference: tx.id }, { token: u.token });
    expect(signed.statusCode, signed.body).toBe(200);
    const lines = signed.json().receipt.lines as { label: string; value: string }[];
    expect(lines).toContainEqual({ label: 'PNR', value: tx.flight.pnr, mask: true });
    expect(lines).toContainEqual({ label: 'Route', value: tx.flight.route });
    const seen = (await call(h, 'GET', '/_serverFn/verifyReceiptPublicReceipts', { needle: signed.json().needle })).json();
    expect(JSON.stringify(seen.receipt)).not.toContain(tx.flight.pnr);
    expect(JSON.stringify(seen.receipt)).not.toContain('Ngozi');
    await expectLedgerOk(h);
  });

  it('a definite failure (1111) is refunded once', async () => {
    const [offer] = await search();
    const { tx, before } = await booked(offer, '1111');
    expect(tx.status).toBe('failed');
    expect(tx.flight.pnr).toBeUndefined();
    expect(await walletBalance(h, u.id)).toBeCloseTo(before, 2);
    expect(await refundCount(h, tx.reference)).toBe(1);
    await reconcile(h, 60_000);
    expect(await refundCount(h, tx.reference)).toBe(1);
    await expectLedgerOk(h);
  });

  it('pending (2222) is ticketed by reconciliation; pending then failed (3333) is refunded by it', async () => {
    const [a] = await search();
    const [b] = await search();
    const ok = await booked(a, '2222');
    const ko = await booked(b, '3333');
    expect([ok.tx.status, ko.tx.status]).toEqual(['processing', 'processing']);
    await reconcile(h, 60_000);
    const settled = await getTx(h, u, ok.tx.id);
    expect(settled.status).toBe('success');
    expect(settled.flight.pnr).toMatch(/^[A-Z2-9]{6}$/);
    expect((await getTx(h, u, ko.tx.id)).status).toBe('failed');
    expect(await refundCount(h, ko.tx.reference)).toBe(1);
    expect(await refundCount(h, ok.tx.reference)).toBe(0);
    await expectLedgerOk(h);
  });

  it('a timeout (4444) stays processing and is never refunded blindly; reconciliation finds it ticketed', async () => {
    const [offer] = await search();
    const { tx, before } = await booked(offer, '4444');
    expect(tx.status).toBe('processing');
    expect(await walletBalance(h, u.id)).toBeCloseTo(before - offer.price, 2);
    expect(await refundCount(h, tx.reference)).toBe(0);
    await reconcile(h, 60_000);
    const after = await getTx(h, u, tx.id);
    expect(after.status).toBe('success');
    expect(after.flight.pnr).toMatch(/^[A-Z2-9]{6}$/);
    const orders = await simulatorOrders(h, await requestIdOf(h, tx.id));
    expect(orders.filter((o) => o.status === 'delivered')).toHaveLength(1);
    expect(await refundCount(h, tx.reference)).toBe(0);
    await expectLedgerOk(h);
  });

  it('no answer and no record (5000) stays processing until the not-found grace, then is refunded once', async () => {
    const [offer] = await search();
    const { tx } = await booked(offer, '5000');
    expect(tx.status).toBe('processing');
    await reconcile(h, 10_000);
    expect((await getTx(h, u, tx.id)).status).toBe('processing');
    expect(await refundCount(h, tx.reference)).toBe(0);
    await reconcile(h, 120_000);
    u = await signIn(h, u.email);
    expect((await getTx(h, u, tx.id)).status).toBe('failed');
    expect(await refundCount(h, tx.reference)).toBe(1);
    await expectLedgerOk(h);
  });
});

describe("the purchase's gates, key, limits and markup", () => {
  it('one Idempotency-Key books once; a wrong PIN, Tier 0 and the daily limit refuse before any debit', async () => {
    const [offer] = await search();
    const before = await walletBalance(h, u.id);
    const key = { headers: { 'idempotency-key': `flight-${offer.offer_id}` } };
    const send = (who: TestUser, over: Record<string, unknown> = {}, opts: object = {}) =>
      call(
        h,
        'POST',
        '/_serverFn/bookFlightBearerVTU',
        {
          offer_id: offer.offer_id,
          passengers: travellers,
          email: 'ade@example.com',
          phone: phone('4567'),
          amount: offer.price,
          pin: PIN,
          ...over,
        },
        { token: who.token, ...opts },
      );
    const first = await send(u, {}, key);
    const again = await send(u, {}, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(again.json().transaction.id).toBe(first.json().transaction.id);
    expect(await walletBalance(h, u.id)).toBeCloseTo(before - offer.price, 2);

    const wrongPin = await send(u, { pin: '9999' });
    expect(wrongPin.json().error.code).toBe('INVALID_PIN');
    const small = await buyer(h, 200_000);
    await setKycTier(h, small.id, 0);
    expect((await send(small)).json().error.code).toBe('KYC_TIER_REQUIRED');
    // Tier 1's daily outflow (₦50,000 by default) is below this fare: refused, nothing debited.
    await setKycTier(h, small.id, 1);
    const [own] = await search(small);
    const limited = await call(
      h,
      'POST',
      '/_serverFn/bookFlightBearerVTU',
      { offer_id: own.offer_id, passengers: travellers, email: 'a@example.com', phone: phone('4567'), amount: own.price, pin: PIN },
      { token: small.token },
    );
    expect(limited.json().error.code).toBe('LIMIT_EXCEEDED');
    expect(await walletBalance(h, small.id)).toBe(200_000);
  });

  it('the flights markup prices the offers and the booking: the wallet pays retail, revenue keeps the markup', async () => {
    const [plain] = await search(u, { destination: 'KAD', departure_date: day(90) });
    const set = await call(
      h,
      'POST',
      '/_serverFn/adminSetMarkupBearerAdmin',
      { service: 'flights', kind: 'percent', value: 2 },
      { token: admin.token },
    );
    expect(set.statusCode, set.body).toBe(200);
    const [marked] = await search(u, { destination: 'KAD', departure_date: day(90) });
    expect(marked.price).toBeCloseTo(plain.price * 1.02, 0);
    // The held offer was priced before the markup changed: its booking now answers the new price first.
    expect((await book(plain, '4567')).json().error.code).toBe('PRICE_CHANGED');
    const { tx } = await booked(marked, '4567');
    expect(tx).toMatchObject({ status: 'success', amount: marked.price, fee: 0 });
    await call(
      h,
      'POST',
      '/_serverFn/adminSetMarkupBearerAdmin',
      { service: 'flights', kind: 'percent', value: 0 },
      { token: admin.token },
    );
    await expectLedgerOk(h);
  });
});

describe('price change', () => {
  it('a fare that moved (6060) is PRICE_CHANGED before any debit; the offer then shows the new price, which books', async () => {
    const [offer] = await search();
    const before = await walletBalance(h, u.id);
    const res = await book(offer, '6060');
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('PRICE_CHANGED');
    expect(await walletBalance(h, u.id)).toBe(before);
    const fresh = (await call(h, 'POST', '/_serverFn/getFlightOfferBearerVTU', { offer_id: offer.offer_id }, { token: u.token })).json();
    expect(fresh.price).toBeGreaterThan(offer.price);
    const ok = await book(fresh, '6060');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().transaction).toMatchObject({ status: 'success', amount: fresh.price });
    await expectLedgerOk(h);
  });

  it('a price the buyer did not confirm is PRICE_CHANGED too', async () => {
    const [offer] = await search();
    const res = await book(offer, '4567', { amount: offer.price - 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('PRICE_CHANGED');
  });
});

describe('cancellation by the fare rules', () => {
  const cancel = (id: string) => call(h, 'POST', '/_serverFn/cancelFlightBookingBearerVTU', { id, pin: PIN }, { token: u.token });
  const cancelRefunds = async (reference: string) =>
    (
      await rows<{ n: number }>(
        h.app.services.db,
        sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE reference = ${`flight_cancel_${reference}`}`,
      )
    )[0].n;

  it('a refundable fare returns the fare less its fee, once, however often it is asked', async () => {
    const [flex] = await search();
    const { tx } = await booked(flex, '4567');
    const before = await walletBalance(h, u.id);
    const res = await cancel(tx.id);
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json().cancellation;
    expect(c.refund).toBeGreaterThan(0);
    // No markup is set here: the fare the airline refunds from is the price paid.
    expect(c.refund + c.fee).toBeCloseTo(tx.amount, 2);
    expect(flex.cancellation_fee).toBeCloseTo(c.fee, 2);
    expect(await walletBalance(h, u.id)).toBeCloseTo(before + c.refund, 2);
    expect((await getTx(h, u, tx.id)).flight.cancellation).toEqual(c);
    const again = await cancel(tx.id);
    expect(again.statusCode).toBe(200);
    expect(again.json().cancellation).toEqual(c);
    expect(await walletBalance(h, u.id)).toBeCloseTo(before + c.refund, 2);
    expect(await cancelRefunds(tx.reference)).toBe(1);
    // The buyer is told once, with the refund and the fee kept.
    const notes = (await call(h, 'GET', '/_serverFn/listNotificationsBearerNotifications', undefined, { token: u.token })).json().items;
    const told = notes.filter((n: any) => n.title === 'Flight cancelled: refunded');
    expect(told).toHaveLength(1);
    expect(told[0].params).toMatchObject({ event: 'flight_cancelled', amount: c.refund, fee: c.fee });
    await expectLedgerOk(h);
  });

  it("a held offer is purged a day after it expires; its booking keeps the fare's rules and can still be cancelled", async () => {
    const [flex] = await search();
    const { tx } = await booked(flex, '4567');
    h.clock.advance(2 * 86_400_000);
    u = await signIn(h, u.email);
    await search();
    const held = await rows(h.app.services.db, sql`SELECT id FROM flight_offers WHERE id = ${flex.offer_id}`);
    expect(held).toEqual([]);
    const res = await cancel(tx.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().cancellation.refund).toBeGreaterThan(0);
    await expectLedgerOk(h);
  });

  it('a non-refundable fare and a booking that was never ticketed are refused, nothing credited', async () => {
    const offers = await search();
    const { tx: saver } = await booked(offers[2], '4567');
    const res = await cancel(saver.id);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('NOT_ELIGIBLE');
    const { tx: failed } = await booked((await search())[0], '1111');
    expect((await cancel(failed.id)).statusCode).toBe(409);
    expect(await cancelRefunds(saver.reference)).toBe(0);
  });
});

describe('operators', () => {
  it("requery a pending booking through the flights adapter (the PNR arrives), list a never-settled one as stuck and resolve it; provider C's float lists flights", async () => {
    admin = await signIn(h, 'admin@example.com'); // earlier tests moved the clock past its token's life
    const { tx } = await booked((await search())[0], '2222');
    const requery = () => call(h, 'POST', '/_serverFn/adminRequeryVtuTransactionBearerAdmin', { id: tx.id }, { token: admin.token });
    expect((await requery()).json()).toMatchObject({ providerStatus: 'pending', transaction: { status: 'processing' } });
    h.clock.advance(6000);
    expect((await requery()).json()).toMatchObject({ providerStatus: 'delivered', transaction: { status: 'success' } });
    expect((await getTx(h, u, tx.id)).flight.pnr).toMatch(/^[A-Z2-9]{6}$/);

    const floats = await call(h, 'GET', '/_serverFn/adminListProviderFloatsBearerAdmin', undefined, { token: admin.token });
    expect(floats.json().items.find((f: any) => f.provider === 'c').services).toContain('flights');

    const { tx: never } = await booked((await search())[0], '4040');
    expect(never.status).toBe('processing');
    h.clock.advance(11 * 60_000);
    await reconcile(h, 0);
    admin = await signIn(h, 'admin@example.com');
    u = await signIn(h, u.email);
    const stuck = await call(h, 'GET', '/_serverFn/adminListStuckVtuTransactionsBearerAdmin', undefined, { token: admin.token });
    expect(stuck.json().items.map((t: any) => t.id)).toContain(never.id);
    const before = await walletBalance(h, u.id);
    await approvalThresholds(h, { vtu_resolution: 10_000_000 });
    const resolved = await call(
      h,
      'POST',
      '/_serverFn/adminResolveVtuTransactionBearerAdmin',
      { id: never.id, outcome: 'failed', note: 'airline: no booking under this request' },
      { token: admin.token },
    );
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json().transaction.status).toBe('failed');
    expect(await walletBalance(h, u.id)).toBeCloseTo(before + never.amount, 2);
    expect(await refundCount(h, never.reference)).toBe(1);
    await expectLedgerOk(h);
  });
});

describe('offers are held per customer and expire', () => {
  it("another customer's offer or booking is NOT_FOUND; an expired offer is a CONFLICT; the wrong travellers are refused", async () => {
    const other = await buyer(h, 1000);
    const [offer] = await search();
    expect((await book(offer, '4567', {}, other)).statusCode).toBe(404);
    const wrong = await book(offer, '4567', { passengers: [travellers[0]] });
    expect(wrong.statusCode).toBe(400);
    const { tx } = await booked((await search())[0], '4567');
    const theirs = await call(h, 'POST', '/_serverFn/cancelFlightBookingBearerVTU', { id: tx.id, pin: PIN }, { token: other.token });
    expect(theirs.statusCode).toBe(404);
    h.clock.advance(31 * 60_000);
    u = await signIn(h, u.email); // the clock jumped past the access token's life
    const late = await book(offer, '4567');
    expect(late.statusCode).toBe(409);
    expect(late.json().error.code).toBe('CONFLICT');
  });
});
