import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { api, apiSignIn, newestCode } from './support';
import * as ops from '../src/api/operations';

/**
 * Issue 28: the offline snapshot (the last balance and activity, in localStorage) must not outlive the session.
 * Sign-out always cleared it; now a session superseded by another device, and one the service refuses on refresh
 * (expired, revoked), clear it too, so the next person at this browser cannot read it offline.
 */
const LOGIN_PIN = '864209';
const snapshot = (page: Page) => page.evaluate(() => localStorage.getItem('vtu.offline'));

test('the offline snapshot goes when the session is superseded or refused', async ({ page, request }) => {
  const email = `end-${randomUUID().slice(0, 8)}@example.com`;
  // A login PIN set through the API (with an e-mailed step-up), so the browser and "another device" can each sign in.
  const token = await apiSignIn(request, email);
  const since = Date.now();
  await api(request, token, 'updateProfileBearerSettings', { fullName: 'Ada Obi' });
  await api(request, token, 'sendStepupEmailCodeBearer2FA');
  const grant = (
    await api(request, token, 'verifyStepupChallengeBearer2FA', { totpCode: await newestCode(request, email, 'mailbox', since - 1) })
  ).grantToken as string;
  const set = await request.post(ops.setLoginPin, {
    data: { data: { pin: LOGIN_PIN } },
    headers: { authorization: `Bearer ${token}`, 'x-grant-token': grant },
  });
  expect((await set.json()).ok).toBe(true);
  // Home would take a brand-new account to the onboarding flow once per browser session: not what this is about.
  await page.addInitScript(() => sessionStorage.setItem('vtu.onboarding.sent', '1'));

  /** Signs in in the browser with the login PIN; Home saves the snapshot. Returns the browser session's token. */
  async function browserSignIn(): Promise<string> {
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign in with login PIN' }).click();
    await page.getByLabel('E-mail or username').fill(email);
    await page.getByLabel('Login PIN').fill(LOGIN_PIN);
    const answer = page.waitForResponse((r) => r.url().includes(ops.startPinLogin) && r.ok());
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const body = await (await answer).json();
    await expect(page.getByTestId('balance')).toHaveText('₦0.00');
    await expect.poll(() => snapshot(page)).not.toBeNull();
    return (body.session ?? body.data.session).accessToken as string;
  }

  /** Another device signs in with the PIN and claims the session: this browser's session is superseded. */
  async function anotherDeviceClaims() {
    const other = await (await request.post(ops.startPinLogin, { data: { data: { identifier: email, pin: LOGIN_PIN } } })).json();
    await api(request, other.session.accessToken, 'claimSessionBearerAuth', { deviceId: `other-${randomUUID()}` });
  }

  // 1. Superseded while the app is open: the next answer says so, and the snapshot is gone with the session.
  await browserSignIn();
  await anotherDeviceClaims();
  // A screen whose data Home did not load, so the app has to ask the service.
  const link = page.getByRole('navigation').getByRole('link', { name: 'Rewards and savings', exact: true }).first();
  if (!(await link.isVisible())) await page.getByRole('button', { name: 'Main' }).click();
  await link.click();
  await expect(page.getByRole('heading', { name: 'You signed in on another device' })).toBeVisible();
  expect(await snapshot(page)).toBeNull();

  // 2. Superseded while the app was closed: opening it refreshes from the cookie, is told so, and clears the snapshot.
  await browserSignIn();
  await anotherDeviceClaims();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'You signed in on another device' })).toBeVisible();
  expect(await snapshot(page)).toBeNull();

  // 3. Refused on refresh (the session was ended elsewhere, as an expired one is): back to sign-in, snapshot gone.
  const browserToken = await browserSignIn();
  await api(request, browserToken, 'signOutBearerAuth');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(await snapshot(page)).toBeNull();
});
