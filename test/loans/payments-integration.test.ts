import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, createHarness, expectLedgerOk, signIn, type Harness } from '../helpers/harness.js';
import { setKycTier } from '../helpers/factories.js';
import { DAY } from '../../src/kernel/clock.js';
import { toKobo } from '../../src/kernel/money.js';
import { balances, purchase } from '../growth/helpers.js';

// The real top-up path: a paid processor checkout credits the wallet and, in the same transaction, repays
// the open loan as far as the credit allows.
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

// The verify path credits inside its own transaction, the webhook's credit job in one autocommit statement; either
// writes the loan's repayment job with the credit.
it.each(['verify', 'webhook'] as const)('a top-up settled by %s repays the open loan automatically', async (by) => {
  const first = await signIn(h);
  await setKycTier(h, first.id, 1);
  for (let i = 0; i < 3; i++) await purchase(h, first.id, 2000);
  h.clock.advance(30 * DAY);
  const u = await signIn(h, first.email);
  expect((await call(h, 'POST', '/_serverFn/takeLoanBearerLoans', { amount: 2000 }, { token: u.token })).statusCode).toBe(200);
  // Spend the loan, as a purchase would.
  await h.app.services.db.transaction((tx) =>
    h.app.services.ledger.post(tx, {
      reference: `spend_${randomUUID()}`,
      type: 'wallet_debit',
      description: 'spend',
      entries: [
        { account: { user: u.id, kind: 'wallet' }, amount: -toKobo(2000) },
        { account: { system: 'adjustments' }, amount: toKobo(2000) },
      ],
    }),
  );

  const intent = await call(h, 'POST', '/_serverFn/createTopupIntentBearerWallet', { amount: 1500 }, { token: u.token });
  expect(intent.statusCode).toBe(200);
  const paid = await h.app.inject({
    method: 'POST',
    url: '/sandbox/processor/pay',
    payload: { reference: intent.json().reference, outcome: 'success', webhook: by === 'webhook' },
  });
  expect(paid.statusCode).toBe(200);
  if (by === 'verify') {
    const verify = await call(
      h,
      'POST',
      '/_serverFn/verifyProcessorTopupBearerPayments',
      { reference: intent.json().reference },
      { token: u.token },
    );
    expect(verify.statusCode).toBe(200);
  }
  await h.app.services.jobs.drain();
  expect(await balances(h, u.id)).toMatchObject({ wallet: 0, loan: -600 });
  const overview = (await call(h, 'GET', '/_serverFn/getLoanOverviewBearerLoans', undefined, { token: u.token })).json();
  expect(overview).toMatchObject({ outstanding: 600, loan: { repaid: 1500, status: 'open' } });
  await expectLedgerOk(h);
});
