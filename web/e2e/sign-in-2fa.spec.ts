import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { TOTP } from 'otpauth';
import { api, apiSignIn, expectAccessible, newestCode } from './support';

const LOGIN_PIN = '864277';

/**
 * Issue 43: two-factor protects sign-in. A customer sets up an authenticator in Settings and is shown ten recovery
 * codes once (copy, download); a sign-in on a new device (a fresh browser) then stops at a second step until the
 * authenticator's code or a recovery code is entered; a used recovery code does not work twice. axe on each screen.
 */
test('with two-factor on, a new device needs the authenticator or a recovery code to sign in', async ({ page, request, browser }) => {
  const email = `tf-${randomUUID().slice(0, 8)}@example.com`;
  // The account and its login PIN through the API (a first PIN within minutes of the e-mailed code needs no other
  // proof); every browser here signs in with the login PIN (a second e-mailed sign-in code would wait a minute).
  const token = await apiSignIn(request, email);
  await api(request, token, 'setLoginPinBearerAuth', { pin: LOGIN_PIN });
  await signInByPin(page, email);
  await expect(page.getByRole('heading', { name: /^(Home|Welcome)$/ })).toBeVisible();
  if (await page.getByRole('link', { name: 'Finish later' }).isVisible()) await page.getByRole('link', { name: 'Finish later' }).click();
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();

  // Settings: the authenticator (its setup is a credential change: an e-mailed code first), then the codes, once.
  await page.goto('/settings');
  const since = Date.now();
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Code digit 1 of 6' }).click();
  await page.keyboard.type(await newestCode(request, email, 'mailbox', since - 1), { delay: 30 });
  await expect(dialog).toBeHidden();
  const totp = new TOTP({ secret: (await page.locator('code').textContent())!.trim(), digits: 6, period: 30 });
  const enrolment = totp.generate();
  await page.getByLabel('Confirmation code').last().fill(enrolment);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('An authenticator app protects your account.')).toBeVisible();
  const list = page.getByRole('list', { name: 'Recovery codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const codes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
  for (const c of codes) expect(c).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
  await expect(page.getByText('they are shown only this once')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy codes' })).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download as a file' }).click();
  expect((await download).suggestedFilename()).toBe('recovery-codes.txt');
  await expectAccessible(page, 'settings-recovery-codes');
  // Shown once: after a reload only the count is left.
  await page.reload();
  await expect(page.getByText('You have 10 unused recovery codes.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Recovery codes' })).toHaveCount(0);

  // A new device: the sign-in stops at the second step; a wrong code is refused; a recovery code signs in.
  const phone = await browser.newContext();
  const p2 = await phone.newPage();
  await signInByPin(p2, email);
  await expect(p2.getByRole('heading', { name: 'One more step to sign in' })).toBeVisible();
  await expectAccessible(p2, 'sign-in-second-factor');
  await p2.getByLabel('Code from the authenticator app').fill(totp.generate() === '000000' ? '111111' : '000000');
  await p2.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(p2.getByRole('alert')).toContainText('That code is not right.');
  await p2.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await p2.getByLabel('Recovery code').fill(codes[0].toLowerCase());
  await p2.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(p2.getByRole('heading', { name: /^(Home|Welcome)$/ })).toBeVisible();
  await phone.close();

  // Another new device: the used code is refused; the authenticator's code (a new one) signs in.
  const tablet = await browser.newContext();
  const p3 = await tablet.newPage();
  await signInByPin(p3, email);
  await p3.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await p3.getByLabel('Recovery code').fill(codes[0]);
  await p3.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(p3.getByRole('alert')).toContainText('That code is not right.');
  await p3.getByRole('button', { name: 'Use the authenticator app instead' }).click();
  await expect.poll(() => totp.generate(), { timeout: 35_000, intervals: [1000] }).not.toBe(enrolment);
  await p3.getByLabel('Code from the authenticator app').fill(totp.generate());
  await p3.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(p3.getByRole('heading', { name: /^(Home|Welcome)$/ })).toBeVisible();
  await tablet.close();
});

async function signInByPin(page: Page, email: string) {
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign in with login PIN' }).click();
  await page.getByLabel('E-mail or username').fill(email);
  await page.getByLabel('Login PIN').fill(LOGIN_PIN);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}
