import { expect, test } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { expectAccessible, newestCode, typeCode } from './support';

/**
 * Operators' passkeys (issue #30), with Chromium's virtual authenticator: an operator adds a passkey in the console,
 * (its first step-up by an e-mailed code), and a later step-up (saving the four-eyes thresholds) is confirmed with
 * the passkey, without any code.
 */
const OPERATOR = 'ops-console-passkey@example.com';

test('an operator adds a passkey and confirms a step-up with it', async ({ page, request }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });

  await consoleSignIn(page, request, OPERATOR, '/console/operators');
  await expect(page.getByRole('heading', { name: 'Operators', level: 1 })).toBeVisible();
  await page.getByLabel("New passkey's name (optional)").fill('Work laptop');
  // Adding a second factor asks for a step-up first: this operator has none yet, so an e-mailed code.
  const since = Date.now() - 1;
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('dialog', { name: 'Confirm it is you' })).toBeVisible();
  await typeCode(page, 'Confirmation code', await newestCode(request, OPERATOR, 'mailbox', since));
  await expect(page.getByRole('status').filter({ hasText: 'Passkey "Work laptop" added.' })).toBeVisible();
  await expect(
    page.getByRole('group', { name: 'Passkeys of this operator' }).getByRole('cell', { name: 'Work laptop', exact: true }),
  ).toBeVisible();
  await expectAccessible(page, 'console-passkeys');

  // A step-up action in a new page load (the code's grant is gone with it): the passkey answers; no code dialog opens.
  await page.goto('/console/approvals');
  await page.getByRole('button', { name: 'Save thresholds' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Thresholds saved.' })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Confirm it is you' })).toHaveCount(0);
});
