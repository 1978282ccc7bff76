import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingOutcome, createFlightAdapterC, type FlightAdapter } from '../../src/modules/vtu/kinds/flights/adapter.js';
import { requestIdFor } from '../../src/modules/vtu/model.js';
import { fundFloat, floatBalance } from '../../src/sandbox/vtu/engine.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { VTU_ENV } from './helpers.js';

// Provider C's flight simulator through the flights adapter (issue 32): deterministic offers, the fare check with the
// "6060" price change, booking outcomes by the contact phone's last four digits, requery and cancellation by fare rules.

let h: Harness;
let c: FlightAdapter;
beforeAll(async () => {
  h = await createHarness({ env: VTU_ENV });
  c = createFlightAdapterC(h.app.services.vtuProviders.c.client);
  await fundFloat(h.app.services.db, h.clock, 'c', 100_000_000n, 'flights-sim-test');
});
afterAll(async () => h.close());

const day = (n: number) => new Date(h.clock.now().getTime() + n * 86_400_000).toISOString().slice(0, 10);
const search = (over: object = {}) => ({
  origin: 'LOS',
  destination: 'ABV',
  departureDate: day(10),
  adults: 2,
  children: 0,
  infants: 0,
  cabin: 'economy' as const,
  ...over,
});
const passengers = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    title: 'mr',
    first_name: `Ade${i}`,
    last_name: 'Bello',
    date_of_birth: '1990-01-01',
    type: 'adult' as const,
  }));
let seq = 0;
const rid = () => `${requestIdFor(h.clock.now())}F${seq++}`;

describe('flight search', () => {
  it('answers three deterministic offers with fares, rules and an expiry; the same search the same offers', async () => {
    const a = await c.search(search());
    const b = await c.search(search());
    expect(a).toHaveLength(3);
    expect(b.map((o) => [o.providerOfferId, o.amount])).toEqual(a.map((o) => [o.providerOfferId, o.amount]));
    expect(a.map((o) => o.refundable)).toEqual([true, true, false]);
    for (const o of a) {
      expect(o.amount > 0n).toBe(true);
      expect(o.expiresAt.getTime()).toBe(h.clock.now().getTime() + 30 * 60_000);
      expect(o.itinerary.segments[0]).toMatchObject({ origin: 'LOS', destination: 'ABV' });
      expect(o.passengers).toEqual({ adults: 2, children: 0, infants: 0 });
    }
    const ret = await c.search(search({ returnDate: day(14) }));
    expect(ret[0].itinerary.segments.map((s) => s.origin)).toEqual(['LOS', 'ABV']);
  });

  it('refuses an unknown airport, a past date or more infants than adults', async () => {
    await expect(c.search(search({ origin: 'XXX' }))).rejects.toThrow(/UNKNOWN AIRPORT/);
    await expect(c.search(search({ departureDate: day(-2) }))).rejects.toThrow(/PAST/);
    await expect(c.search(search({ adults: 1, infants: 2 }))).rejects.toThrow(/PASSENGER/);
  });
});

describe('fare check and booking', () => {
  it('"6060" moves the fare once; booking at the old fare is refused with nothing recorded, at the new one it is ticketed', async () => {
    const [o] = await c.search(search({ destination: 'PHC' }));
    const first = await c.check(o.providerOfferId, '08031236060');
    expect(first.status).toBe('available');
    if (first.status !== 'available') return;
    expect(first.offer.amount).toBe(o.amount + (o.amount / 2000n) * 100n);
    const again = await c.check(o.providerOfferId, '08031236060');
    expect(again.status === 'available' && again.offer.amount).toBe(first.offer.amount);

    const base = {
      service: 'flights',
      recipient: '08031236060',
      inputs: { providerOfferId: o.providerOfferId, passengers: passengers(2), email: 'a@b.ng' },
    };
    const stale = await c.purchase({ ...base, requestId: rid(), wholesale: o.amount });
    expect(stale).toMatchObject({ status: 'failed', message: expect.stringMatching(/fare changed/) });
    const requestId = rid();
    const ok = await c.purchase({ ...base, requestId, wholesale: first.offer.amount });
    expect(ok.status).toBe('delivered');
    expect((ok.details as any).pnr).toMatch(/^[A-Z2-9]{6}$/);
    expect((ok.details as any).tickets).toHaveLength(2);
    expect(await c.requery(requestId)).toEqual(ok);
  });

  it('the contact phone chooses the outcome: 1111 failed, 2222 pending then ticketed on requery, 5000 unknown', async () => {
    const [o] = await c.search(search({ destination: 'KAN' }));
    const book = (phone: string, requestId = rid()) =>
      c.purchase({
        service: 'flights',
        requestId,
        recipient: phone,
        wholesale: o.amount,
        inputs: { providerOfferId: o.providerOfferId, passengers: passengers(2), email: 'a@b.ng' },
      });
    expect((await book('08031231111')).status).toBe('failed');
    const pendingId = rid();
    expect((await book('08031232222', pendingId)).status).toBe('pending');
    h.clock.advance(6000);
    expect((await c.requery(pendingId)).status).toBe('delivered');
    expect((await book('08031235000')).status).toBe('unknown');
    expect((await c.requery('202601010000NOSUCH')).status).toBe('not_found');
  });

  it('an expired offer is gone and cannot be booked', async () => {
    const [o] = await c.search(search({ destination: 'ENU' }));
    h.clock.advance(31 * 60_000);
    expect((await c.check(o.providerOfferId, '08031234567')).status).toBe('gone');
    const out = await c.purchase({
      service: 'flights',
      requestId: rid(),
      recipient: '08031234567',
      wholesale: o.amount,
      inputs: { providerOfferId: o.providerOfferId, passengers: passengers(2), email: 'a@b.ng' },
    });
    expect(out).toMatchObject({ status: 'failed', message: expect.stringMatching(/expired/) });
  });
});

describe('cancellation by the fare rules', () => {
  it('a refundable fare returns the fare less its fee, once; a saver returns nothing; an unticketed booking is refused', async () => {
    const offers = await c.search(search({ destination: 'QOW' }));
    const book = async (i: number) => {
      const requestId = rid();
      const out = await c.purchase({
        service: 'flights',
        requestId,
        recipient: '08031234567',
        wholesale: offers[i].amount,
        inputs: { providerOfferId: offers[i].providerOfferId, passengers: passengers(2), email: 'a@b.ng' },
      });
      expect(out.status).toBe('delivered');
      return requestId;
    };
    const flex = await book(0);
    const before = await floatBalance(h.app.services.db, 'c');
    const done = await c.cancel(flex);
    expect(done).toEqual({ status: 'cancelled', refund: offers[0].amount - offers[0].cancelFee, fee: offers[0].cancelFee });
    expect(await c.cancel(flex)).toEqual(done);
    expect(await floatBalance(h.app.services.db, 'c')).toBe(before + offers[0].amount - offers[0].cancelFee);
    const saver = await book(2);
    expect(await c.cancel(saver)).toEqual({ status: 'cancelled', refund: 0n, fee: offers[2].amount });
    expect((await c.cancel('202601010000NOSUCH')).status).toBe('refused');
  });
});

describe('reading booking answers (only explicit failures are failures)', () => {
  const ticketed = {
    code: '000',
    content: { transactions: { status: 'delivered' } },
    booking: { pnr: 'ABC234', tickets: ['1234567890123'] },
  };
  it('a refusal before booking (offer expired 019, fare changed 020) fails a purchase but says nothing of a requery', () => {
    for (const code of ['019', '020']) {
      expect(bookingOutcome({ status: 200, body: { code } }).status, code).toBe('failed');
      expect(bookingOutcome({ status: 200, body: { code } }, 'requery').status, code).toBe('unknown');
    }
  });
  it('ticketed carries the PNR and tickets; ticketed without a PNR, a 5xx or garbage is unknown', () => {
    expect(bookingOutcome({ status: 200, body: ticketed })).toMatchObject({
      status: 'delivered',
      details: { pnr: 'ABC234', tickets: ['1234567890123'] },
    });
    expect(bookingOutcome({ status: 200, body: { ...ticketed, booking: undefined } }).status).toBe('unknown');
    expect(bookingOutcome({ status: 502, body: null }).status).toBe('unknown');
    expect(bookingOutcome({ status: 200, body: { code: '016' } }).status).toBe('failed');
    expect(bookingOutcome({ status: 200, body: { code: '015' } }, 'requery').status).toBe('not_found');
  });
});
