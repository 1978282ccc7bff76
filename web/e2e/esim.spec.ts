import { expect, test } from '@playwright/test';
import { readyCustomer, signInWithPin, typePin } from './customer';
import { expectAccessible } from './support';

/**
 * Issue 32: a travel eSIM bought in the app (destination, plan, phone, the review, the PIN pad) and its QR code on the
 * result screen, with the activation code it encodes and the ICCID; then its usage. A social order with part of it
 * delivered shows its progress and the refund of the rest.
 */
test('a customer buys a travel eSIM and sees its QR code; a social order partly delivered shows the refund', async ({ page, request }) => {
  test.setTimeout(300_000);
  const c = await readyCustomer(request, 'ops-esim@example.com', 40_000);
  await signInWithPin(page, c);

  await page.goto('/buy?service=esim');
  await expect(page.getByRole('navigation', { name: 'Services' }).getByRole('link', { name: 'Travel eSIM' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await page.getByLabel('Destination').selectOption({ label: 'United Kingdom' });
  const plan = page.getByLabel('Data plan');
  await expect(plan.locator('option')).toHaveCount(4);
  await plan.selectOption({ index: 1 });
  await page.getByLabel('Phone number').fill('08031234567');
  // Issue 43: the phone's eSIM support is confirmed before the price and the PIN.
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByText('Check that your phone supports eSIM first')).toBeVisible();
  await expect(page.getByTestId('confirm-lines')).toHaveCount(0);
  await expectAccessible(page, 'eSIM compatibility');
  await page.getByRole('checkbox', { name: 'My phone supports eSIM and is not locked to one network' }).check();
  await page.getByRole('button', { name: 'Review' }).click();
  const lines = page.getByTestId('confirm-lines');
  await expect(lines).toContainText('United Kingdom');
  await expect(lines).toContainText('1 GB · 7 days');
  await typePin(page);

  await expect(page.getByTestId('purchase-status')).toContainText('Successful', { ignoreCase: true });
  const qr = page.getByTestId('esim-qr');
  await expect(qr).toBeVisible();
  await expect(qr).toHaveAttribute('src', /^data:image\/png;base64,/);
  expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth >= 200)).toBe(true);
  await expect(page.getByTestId('esim-activation')).toHaveText(/^LPA:1\$[^$]+\$[0-9A-F]+$/);
  await expect(page.getByTestId('esim-iccid')).toContainText(/89234\d{15}/);
  await page.getByRole('button', { name: 'Check data left' }).click();
  await expect(page.getByTestId('esim-usage')).toContainText('Not installed yet');
  await expectAccessible(page, 'eSIM result');

  // A social order whose link ends 6464: 600 of 1,000 delivered, the rest refunded.
  await page.goto('/buy?service=social');
  await page.getByRole('combobox', { name: 'Service' }).selectOption({ value: 'ig-followers' });
  await page.getByLabel('Link').fill('https://instagram.com/p/shop6464');
  await page.getByLabel('Quantity').fill('1000');
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByTestId('confirm-lines')).toContainText('1,000');
  await typePin(page);
  await expect(page.getByTestId('social-progress')).toContainText('600 of 1,000 delivered');
  await expect(page.getByTestId('social-refund')).toBeVisible();
});
