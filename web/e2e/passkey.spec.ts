import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, newestCode, typeCode } from './support';

/**
 * Issue 43: fingerprint or face (a passkey on the phone's own authenticator), with Chromium's virtual authenticator
 * standing in for the phone's: offered once in onboarding right after the PIN (one tap), then the customer signs out,
 * signs in with it (no address, no code) and buys airtime confirming with it instead of the PIN. axe on each new screen.
 */
const PIN = '2468';

async function typePin(page: Page, pin: string) {
  for (const d of pin) await page.getByRole('button', { name: `Digit ${d}` }).click();
}

test('a new customer onboards with fingerprint or face, signs in with it and buys airtime confirming with it', async ({
  page,
  request,
}) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  const email = `passkey-${randomUUID().slice(0, 8)}@example.com`;
  // Ends in 68: none of the sandbox's magic endings (repeated digits) applies.
  const phone = `0803${String(Math.floor(Math.random() * 100_000)).padStart(5, '0')}68`;
  const started = Date.now();

  await page.goto('/');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await typeCode(page, '6-digit code', await newestCode(request, email, 'mailbox', started - 1));
  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
  await page.getByLabel('Full name').fill('Ada Obi');
  await page.getByRole('button', { name: 'Continue' }).click();
  const smsSince = Date.now();
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Send SMS code' }).click();
  await typeCode(page, 'SMS code', await newestCode(request, phone, 'sms', smsSince - 1));
  await expect(page.getByText('Choose a 4-digit PIN.')).toBeVisible();
  await typePin(page, PIN);
  await typePin(page, PIN);

  // The one screen of the offer: one tap adds the passkey (for sign-in, and for payments with the PIN just typed).
  await expect(page.getByRole('heading', { name: 'Use your fingerprint or face?' })).toBeFocused();
  await expect(page.getByRole('button', { name: 'Not now' })).toBeVisible();
  await expectAccessible(page, 'welcome-passkey');
  await page.getByRole('button', { name: 'Use fingerprint or face' }).click();

  await expect(page.getByText('Purchases need a quick selfie check')).toBeVisible();
  await page.getByRole('button', { name: 'Open the camera' }).click();
  await page.getByRole('button', { name: 'Take the pictures' }).click();
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect(page.getByRole('heading', { name: 'You are ready' })).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Fund wallet' }).click();
  await page.getByLabel('Amount (₦)').fill('1000');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByText('Your wallet was credited with ₦1,000.00.')).toBeVisible();

  // Settings lists it, with payments on.
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Fingerprint or face' });
  await expect(section.getByRole('switch', { name: 'Use for payments' })).toBeChecked();
  await expect(section.getByRole('button', { name: /^Remove / })).toHaveCount(1);
  await expectAccessible(page, 'settings-passkeys');

  // Signed out, then in again with the passkey: no address, no code.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  const signInWithPasskey = page.getByRole('button', { name: 'Sign in with fingerprint or face' });
  await expect(signInWithPasskey).toBeVisible();
  await expectAccessible(page, 'sign-in-passkey');
  await signInWithPasskey.click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();

  // Airtime, confirmed with the passkey; the PIN pad stays as the other way.
  await page.goto('/buy?service=airtime');
  await page.getByRole('textbox', { name: 'Phone number', exact: true }).fill(phone);
  await expect(page.getByText('Detected network: MTN')).toBeVisible();
  await page.getByLabel('Amount (₦)').fill('100');
  await page.getByRole('button', { name: 'Review' }).click();
  const confirm = page.getByRole('button', { name: 'Confirm with fingerprint or face' });
  await expect(confirm).toBeVisible();
  await expect(page.getByRole('button', { name: 'Digit 1' })).toBeVisible();
  await expectAccessible(page, 'review-passkey');
  await confirm.click();
  await expect(page.getByTestId('purchase-status')).toContainText('Successful');
  console.log(`passkey journey: ${((Date.now() - started) / 1000).toFixed(1)} s of script time`);
});
