import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PEOPLE, seedDemo } from '../../scripts/seed/demo.js';
import { expectLedgerOk, listeningHarness, type Harness } from '../helpers/harness.js';

/**
 * `npm run seed` against a real listening sandbox: every demo customer at their KYC tier with a funded wallet and
 * purchases in each state, an operator, and a second run that finds everything in place and changes nothing.
 */
describe('npm run seed', () => {
  let h: Harness;
  let base: string;
  // The job worker of a running `npm start` (the harness runs jobs only when asked): the webhook's credit is a job.
  let worker: ReturnType<typeof setInterval>;
  beforeAll(async () => {
    const listening = await listeningHarness();
    h = listening;
    base = listening.base;
    let running = false;
    worker = setInterval(() => {
      if (running) return;
      running = true;
      void h.app.services.jobs.drain().finally(() => (running = false));
    }, 50);
  }, 60_000);
  afterAll(async () => {
    clearInterval(worker);
    await h?.close();
  });

  it('creates the demo people and the operator, then is idempotent', async () => {
    const first = await seedDemo({ baseUrl: base });
    expect(first.created.length).toBeGreaterThan(20);
    expect(first.operator.email).toBe('operator@demo.test');
    for (const p of DEMO_PEOPLE) {
      const got = first.people.find((x) => x.key === p.key)!;
      expect(got.tier, p.email).toBe(p.tier);
      expect(got.balance, p.email).toBeGreaterThan(0);
      if (p.tier >= 1) {
        expect(got.purchases.success, p.email).toBeGreaterThanOrEqual(2);
        expect(got.purchases.failed, p.email).toBeGreaterThanOrEqual(1);
        expect(got.purchases.processing, p.email).toBeGreaterThanOrEqual(1);
      } else {
        expect(got.purchases).toEqual({});
      }
    }
    await expectLedgerOk(h);

    const second = await seedDemo({ baseUrl: base });
    expect(second.created).toEqual([]);
    expect(second.people.map((p) => p.tier)).toEqual(first.people.map((p) => p.tier));
    await expectLedgerOk(h);
  }, 120_000);

  it('refuses a server that is not a sandbox or not running', async () => {
    await expect(seedDemo({ baseUrl: 'http://127.0.0.1:9' })).rejects.toThrow(/start the sandbox first/);
  });
});
