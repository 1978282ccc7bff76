import { expect, test } from '@playwright/test';
import { consoleSignIn, customerAwaitingReview, readmeShot } from './console-support';
import { api, expectAccessible } from './support';

/**
 * The operator console (issue #30): a customer is told they are not an operator; an operator signs in at /console,
 * finds the selfie a customer submitted in this run in the KYC queue, looks at its frames and approves it with the
 * keyboard; the customer's Tier 1 is approved. axe on every screen the journey passes.
 */
const OPERATOR = 'ops-console@example.com';

test('a signed-in customer visiting /console is told it is not an operator', async ({ page, request }) => {
  const email = `not-op-${Date.now()}@example.com`;
  await consoleSignIn(page, request, email);
  await expect(page.getByRole('heading', { name: 'Not an operator' })).toBeVisible();
  await expectAccessible(page, 'console-not-operator');
});

test('an operator approves a KYC submission a customer made in this run', async ({ page, request }) => {
  const customer = await customerAwaitingReview(request);
  await consoleSignIn(page, request, OPERATOR);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByLabel('Loading')).toHaveCount(0);
  await expectAccessible(page, 'console-dashboard');

  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'KYC queue' }).click();
  await expect(page.getByRole('heading', { name: 'KYC queue' })).toBeVisible();
  await page.getByRole('button', { name: customer.email }).click();
  const detail = page.getByRole('region', { name: `${customer.email}, tier 1` });
  await expect(detail).toBeVisible();
  await expect(detail.getByText('Liveness: review')).toBeVisible();
  await expect(detail.getByRole('img', { name: /frame 1/i })).toBeVisible();
  await expectAccessible(page, 'console-kyc');
  await readmeShot(page, 'console-kyc');

  // "a" asks to approve (a note is optional); the submission leaves the pending queue.
  await page.getByRole('heading', { name: 'KYC queue' }).click();
  await page.keyboard.press('a');
  const dialog = page.getByRole('dialog', { name: 'Approve this submission' });
  await dialog.getByLabel('Note (optional)').fill('Frames match the profile');
  await expectAccessible(page, 'console-kyc-approve');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: customer.email })).toBeHidden();

  const status = await api(request, customer.token, 'getKycStatusBearerKYC', {}, 'GET');
  expect(JSON.stringify(status)).toMatch(/"tier":1,"status":"approved"/);

  // The service sorts the queue: a click on Submitted asks for the oldest first, and says so (aria-sort).
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'approved', exact: true }).click();
  const submitted = page.getByRole('columnheader', { name: /Submitted/ });
  await expect(submitted).toHaveAttribute('aria-sort', 'descending');
  await submitted.getByRole('button').click();
  await expect(submitted).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL(/sort=oldest/);
  await expect(page.getByRole('columnheader', { name: /Tier/ })).toHaveAttribute('aria-sort', 'none');
});
