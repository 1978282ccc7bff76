import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { toKobo } from '../../src/kernel/money.js';
import { GROWTH_EVENT_BATCH } from '../../src/modules/growth/register.js';
import { call, createHarness, expectLedgerOk, signIn, type Harness } from '../helpers/harness.js';
import { statementsOfEither } from '../helpers/statements.js';
import { count } from '../payments/helpers.js';
import { balances, signUpWithCode } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

it("many delivered purchases' growth jobs are worked together: one statement records them, the rest runs only for the invitee's", async () => {
  const { db, work, jobs } = h.app.services;
  const referrer = await signIn(h);
  const { code } = (await call(h, 'GET', '/_serverFn/getMyReferralStatusBearerGrowth', undefined, { token: referrer.token })).json();
  const invitee = await signUpWithCode(h, code);
  const buyers = [invitee.id, ...(await Promise.all(Array.from({ length: 5 }, () => signIn(h)))).map((u) => u.id)];
  // Thirty purchases by six buyers, one of them the invitee (its purchase qualifies the referral).
  const purchases = Array.from({ length: 30 }, (_, i) => ({
    userId: buyers[i % buyers.length],
    transactionId: randomUUID(),
    amount: toKobo(500),
    service: 'airtime',
  }));
  for (const p of purchases) await db.transaction((tx) => work.change(tx).emit('vtu.succeeded', p).commit());
  const texts = await statementsOfEither(() => jobs.drain());
  const recorded = await count(
    h,
    sql`SELECT count(*)::int AS n FROM growth_purchases WHERE transaction_id::text = ANY(${`{${purchases.map((p) => p.transactionId).join(',')}}`}::text[])`,
  );
  expect(recorded).toBe(30);
  // Thirty purchases fit one claim of the lane: recorded by one statement, not thirty.
  expect(GROWTH_EVENT_BATCH).toBeGreaterThanOrEqual(30);
  expect(texts.filter((t) => t.includes('INSERT INTO growth_purchases') && t.includes('jsonb_to_recordset')).length).toBe(1);
  // The invitee's purchases went through the rest of the bookkeeping: the referrer earned the bonus, once.
  expect((await balances(h, referrer.id)).referral_locked).toBe(500);
  expect(await count(h, sql`SELECT count(*)::int AS n FROM jobs WHERE queue = 'growth.eventRetry' AND status <> 'done'`)).toBe(0);
  await expectLedgerOk(h);
});
