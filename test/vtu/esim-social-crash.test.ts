import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, expectLedgerOk, usingPostgres, type Harness } from '../helpers/harness.js';
import { CRASH_REASON, expectRecovered, killMidPurchase } from './crash.js';
import { buyer, mtn, VTU_ENV, walletBalance } from './helpers.js';

/**
 * The crash matrix for travel eSIMs and social orders (as crash-recovery.test.ts for airtime): a process killed
 * between the debit and the provider's answer leaves a processing purchase; after a restart reconciliation settles it
 * with the original request id: delivered (4444: the provider had it) or refunded (8888: the request died on the
 * wire). Needs a real database server shared with the child (TEST_DATABASE_URL).
 */
let h: Harness;
beforeAll(async () => {
  if (usingPostgres) h = await createHarness({ env: VTU_ENV });
});
afterAll(async () => h?.close());

describe.skipIf(!usingPostgres)(
  `eSIM and social purchases killed mid-flight (${usingPostgres ? 'PostgreSQL' : `skipped: ${CRASH_REASON}`})`,
  () => {
    it('end delivered or refunded after restart, each with at most one delivery and at most one refund', async () => {
      const u = await buyer(h, 100_000);
      const plan = (await call(h, 'GET', '/_serverFn/listEsimPlansBearerVTU', { destination: 'gb' }, { token: u.token })).json().items[0];
      const quote = (
        await call(
          h,
          'POST',
          '/_serverFn/quotePurchaseBearerVTU',
          { service: 'social', plan_id: 'ig-followers', quantity: 100 },
          { token: u.token },
        )
      ).json();
      const cases = [
        {
          kind: 'esim',
          recipient: mtn('4444'),
          input: { plan_id: plan.plan_id, phone: mtn('4444'), amount: plan.price },
          expect: 'success' as const,
        },
        {
          kind: 'esim',
          recipient: mtn('8888'),
          input: { plan_id: plan.plan_id, phone: mtn('8888'), amount: plan.price },
          expect: 'failed' as const,
        },
        {
          kind: 'social',
          recipient: 'https://instagram.com/p/crash4444',
          input: { service_id: 'ig-followers', link: 'https://instagram.com/p/crash4444', quantity: 100, amount: quote.total },
          expect: 'success' as const,
        },
        {
          kind: 'social',
          recipient: 'https://instagram.com/p/crash8888',
          input: { service_id: 'ig-followers', link: 'https://instagram.com/p/crash8888', quantity: 100, amount: quote.total },
          expect: 'failed' as const,
        },
      ];
      const start = await walletBalance(h, u.id);
      const killed: { id: string; recipient: string; expect: 'success' | 'failed'; amount: number }[] = [];
      for (const c of cases) {
        const id = await killMidPurchase(h, {
          userId: u.id,
          kind: c.kind,
          input: c.input,
          recipient: c.recipient,
          delivered: c.expect === 'success',
        });
        killed.push({ id, recipient: c.recipient, expect: c.expect, amount: c.input.amount });
      }
      const spent = killed.reduce((s, k) => s + k.amount, 0);
      expect(await walletBalance(h, u.id)).toBeCloseTo(start - spent, 2);

      const txs = await expectRecovered(h, u.email, killed);
      for (const tx of txs) if (tx.status === 'success' && tx.service === 'esim') expect(tx.esim.activationCode).toMatch(/^LPA:1\$/);
      const refunded = killed.filter((k) => k.expect === 'failed').reduce((s, k) => s + k.amount, 0);
      expect(await walletBalance(h, u.id)).toBeCloseTo(start - spent + refunded, 2);
      await expectLedgerOk(h);
    });
  },
);
