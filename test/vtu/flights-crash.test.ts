import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setKycTier } from '../helpers/factories.js';
import { call, createHarness, expectLedgerOk, usingPostgres, type Harness } from '../helpers/harness.js';
import { CRASH_REASON, expectRecovered, killMidPurchase } from './crash.js';
import { buyer, mtn, VTU_ENV, walletBalance } from './helpers.js';

/**
 * The crash matrix for flight bookings (as crash-recovery.test.ts for airtime): a process killed between the debit and
 * the provider's answer leaves a processing booking; after a restart reconciliation settles it with the original
 * request id: ticketed with its PNR (4444: the provider had it) or refunded (8888: the request died on the wire). Needs
 * a real database server shared with the child (TEST_DATABASE_URL).
 */
let h: Harness;
beforeAll(async () => {
  if (usingPostgres) h = await createHarness({ env: VTU_ENV });
});
afterAll(async () => h?.close());

describe.skipIf(!usingPostgres)(`flight bookings killed mid-flight (${usingPostgres ? 'PostgreSQL' : `skipped: ${CRASH_REASON}`})`, () => {
  it('end ticketed or refunded after restart, each with at most one ticketing and at most one refund', async () => {
    // The child runs on the wall clock: the held offers must be current for it.
    h.clock.set(new Date());
    const u = await buyer(h, 1_000_000);
    await setKycTier(h, u.id, 3);
    const departure = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    const cases = [
      { last4: '4444', destination: 'ABV', expect: 'success' as const },
      { last4: '8888', destination: 'PHC', expect: 'failed' as const },
    ];
    const start = await walletBalance(h, u.id);
    const killed: { id: string; recipient: string; expect: 'success' | 'failed'; amount: number }[] = [];
    for (const c of cases) {
      const search = await call(
        h,
        'POST',
        '/_serverFn/searchFlightsBearerVTU',
        { origin: 'LOS', destination: c.destination, departure_date: departure },
        { token: u.token },
      );
      const offer = search.json().items[0];
      const input = {
        offer_id: offer.offer_id,
        passengers: [{ title: 'mr', first_name: 'Tunde', last_name: 'Ade', date_of_birth: '1985-05-05', type: 'adult' }],
        email: 'tunde@example.com',
        phone: mtn(c.last4),
        amount: offer.price,
      };
      const id = await killMidPurchase(h, {
        userId: u.id,
        kycTier: 3,
        kind: 'flights',
        input,
        recipient: input.phone,
        delivered: c.expect === 'success',
      });
      killed.push({ id, recipient: input.phone, expect: c.expect, amount: offer.price });
    }
    const spent = killed.reduce((s, k) => s + k.amount, 0);
    expect(await walletBalance(h, u.id)).toBeCloseTo(start - spent, 2);

    const txs = await expectRecovered(h, u.email, killed);
    for (const tx of txs) if (tx.status === 'success') expect(tx.flight.pnr).toMatch(/^[A-Z2-9]{6}$/);
    const refunded = killed.filter((k) => k.expect === 'failed').reduce((s, k) => s + k.amount, 0);
    expect(await walletBalance(h, u.id)).toBeCloseTo(start - spent + refunded, 2);
    await expectLedgerOk(h);
  });
});
