import { expect, test } from '@playwright/test';
import { readyCustomer, signInWithPin, typePin } from './customer';
import { expectAccessible } from './support';

/**
 * Offline mid-purchase (issue 43): the connection drops as the PIN is typed; a banner says so in words, the purchase is
 * kept and sent again under the same key when the connection is back, and it is paid once.
 */
test('offline mid-purchase: a banner in words, and the purchase neither lost nor doubled', async ({ page, context, request }) => {
  const c = await readyCustomer(request, null);
  await signInWithPin(page, c);
  await page.goto('/buy?service=airtime');
  await page.getByRole('textbox', { name: 'Phone number', exact: true }).fill('08031234567');
  await page.getByLabel('Amount (₦)').fill('150');
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByRole('button', { name: 'Digit 1' })).toBeVisible();

  await context.setOffline(true);
  await typePin(page);
  const banner = page.getByTestId('offline-purchase');
  await expect(banner).toBeVisible();
  await expect(banner).toHaveAttribute('role', 'alert');
  await expect(banner).toContainText('You are offline');
  await expect(banner).toContainText('never paid twice');
  await expectAccessible(page, 'offline-purchase');

  await context.setOffline(false);
  await expect(page.getByTestId('purchase-status')).toContainText('Successful');
  await expect(page.getByTestId('offline-purchase')).toHaveCount(0);
  // Paid once: the wallet is debited one time (the purchase re-sent under its key is a replay, not a second one).
  await page.goto('/');
  await expect(page.getByTestId('balance')).toHaveText('₦19,850.00');
});
