import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, createHarness, expectLedgerOk, fundWallet, setKycTier, signIn, type Harness } from '../helpers/harness.js';
import { mtn, PIN, reconcile, VTU_ENV } from '../vtu/helpers.js';
import { balances, signUpWithCode } from './helpers.js';

// The real purchase path: a delivered airtime purchase (sandbox provider C) emits 'vtu.succeeded' and the
// referrer earns the locked bonus in the same transaction; a refunded one earns nothing.
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: VTU_ENV });
});
afterAll(async () => h?.close());

it('a delivered purchase by the invitee pays the referrer; a failed one does not', async () => {
  const a = await signIn(h);
  const { code } = (await call(h, 'GET', '/_serverFn/getMyReferralStatusBearerGrowth', undefined, { token: a.token })).json();
  const b = await signUpWithCode(h, code);
  await h.app.services.pins.set(b.id, 'transaction', PIN);
  await setKycTier(h, b.id, 1);
  await fundWallet(h, b.id, 5000);

  const failed = await call(h, 'POST', '/api/v1/buyAirtime', { network: 'mtn', phone: mtn('1111'), amount: 500, pin: PIN }, { token: b.token });
  expect(failed.statusCode).toBe(200);
  await reconcile(h);
  expect((await balances(h, a.id)).referral_locked).toBe(0);

  const ok = await call(h, 'POST', '/api/v1/buyAirtime', { network: 'mtn', phone: mtn('1234'), amount: 500, pin: PIN }, { token: b.token });
  expect(ok.statusCode).toBe(200);
  await reconcile(h);
  expect((await balances(h, a.id)).referral_locked).toBe(500);
  const status = (await call(h, 'GET', '/_serverFn/getMyReferralStatusBearerGrowth', undefined, { token: (await signIn(h, a.email)).token })).json();
  expect(status).toMatchObject({ rewardedInvitees: 1, lockedBonus: 500 });
  await expectLedgerOk(h);
});
