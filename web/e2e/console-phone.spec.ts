import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { adminToken, api, apiSignIn, expectAccessible, newestCode, typeCode } from './support';

/**
 * Issue 44: the owner's phone. A wallet adjustment waits for a second operator; on a 390-px phone the Approvals
 * screen lists it as a card that says who asked and for which customer (a link), with Approve and Reject in reach
 * (no sideways scrolling), and the owner approves it there, through step-up.
 */
const CHECKER = 'ops-console-phone@example.com';
const MAKER = 'ops-console-phone-maker@example.com';

test('a waiting approval is approved from a 390-px phone, its card saying who asked and for whom', async ({ page, request }) => {
  const email = `phone-${randomUUID().slice(0, 8)}@example.com`;
  const customer = await apiSignIn(request, email);
  const userId = (await api(request, customer, 'getProfileBearerSettings', {}, 'GET')).profile.id as string;
  const made = await api(request, await adminToken(request, MAKER), 'adminAdjustWalletBearerAdmin', {
    userId,
    amount: 5321,
    reason: 'goodwill credit, ticket 390',
  });
  expect(made.status).toBe('pending');

  await page.setViewportSize({ width: 390, height: 844 });
  await consoleSignIn(page, request, CHECKER, '/console/approvals?status=pending');
  await expect(page.getByRole('heading', { name: 'Approvals', level: 1 })).toBeVisible();
  const card = page
    .getByRole('list', { name: /pending approval requests/ })
    .getByRole('listitem')
    .filter({ hasText: email });
  await expect(card).toHaveCount(1);
  await expect(card.getByRole('link', { name: email })).toHaveAttribute('href', `/console/customers/${userId}`);
  await expect(card).toContainText(MAKER);
  await expect(card).toContainText('goodwill credit, ticket 390');
  const approve = card.getByRole('button', { name: 'Approve Wallet adjustment of ₦5,321.00' });
  await expect(approve).toBeInViewport({ ratio: 1 });
  const box = (await approve.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await expect(card.getByRole('button', { name: 'Reject Wallet adjustment of ₦5,321.00' })).toBeInViewport({ ratio: 1 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await expectAccessible(page, 'console-approvals-phone');

  await approve.click();
  const dialog = page.getByRole('dialog', { name: /^Approve: Wallet adjustment of ₦5,321\.00/ });
  const since = Date.now() - 1;
  await dialog.getByRole('button', { name: 'Approve' }).click();
  const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
  const done = page.getByRole('status').filter({ hasText: 'Wallet adjustment of ₦5,321.00: approved.' });
  await expect(stepUp.or(done).first()).toBeVisible();
  if (await stepUp.isVisible()) await typeCode(page, 'Confirmation code', await newestCode(request, CHECKER, 'mailbox', since));
  await expect(done).toBeVisible();
  // The card leaves the pending list without a reload, and the customer is credited once.
  await expect(card).toHaveCount(0);
  expect((await api(request, customer, 'getWalletStateBearerWallet', {}, 'GET')).balance).toBe(5321);
});
