import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, expectLedgerOk, signIn, type Harness } from '../helpers/harness.js';
import { balances, purchase, signUpWithCode } from './helpers.js';
import { MINUTE } from '../../src/kernel/clock.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describe('failing growth work', () => {
  it('keeps the emitting change and pays the bonus later through its retried job', async () => {
    const a = await signIn(h);
    const code = (await call(h, 'GET', '/_serverFn/getMyReferralStatusBearerGrowth', undefined, { token: a.token })).json().code;
    const b = await signUpWithCode(h, code);
    const { db, jobs } = h.app.services;
    // A real fault: the table the growth job writes is missing while the purchase is delivered and its job runs.
    await db.execute(sql`ALTER TABLE growth_purchases RENAME TO growth_purchases_away`);
    try {
      await purchase(h, b.id, 500);
    } finally {
      await db.execute(sql`ALTER TABLE growth_purchases_away RENAME TO growth_purchases`);
    }
    expect((await balances(h, a.id)).referral_locked).toBe(0);
    const queued = (await db.execute(
      sql`SELECT count(*)::int AS n, max(attempts)::int AS attempts FROM jobs WHERE queue = 'growth.eventRetry' AND status = 'queued'`,
    )) as unknown as { rows: { n: number; attempts: number }[] };
    expect(queued.rows[0]).toEqual({ n: 1, attempts: 1 });
    // Once its backoff has passed, the retry pays.
    h.clock.advance(MINUTE);
    await jobs.drain();
    expect((await balances(h, a.id)).referral_locked).toBe(500);
    // Delivered twice (a late duplicate of the event): still one bonus.
    await jobs.drain();
    expect((await balances(h, a.id)).referral_locked).toBe(500);
    await expectLedgerOk(h);
  });
});
