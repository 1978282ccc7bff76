import { expect, test } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { expectAccessible, newestCode, typeCode } from './support';

/**
 * Issue 44: a float move says what will happen and asks first. Cancelled, nothing moves; confirmed, the float is
 * funded through step-up.
 */
const OPERATOR = 'ops-console-preview@example.com';

test('a float move shows the pool and the float before and after, and moves only once confirmed', async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  await consoleSignIn(page, request, OPERATOR, '/console/catalogue');
  await expect(page.getByRole('heading', { name: 'Catalogue and pricing', level: 1 })).toBeVisible();
  const form = page.getByRole('form', { name: 'Fund a provider float' });
  await form.getByLabel('Amount (naira)').fill('200000');
  await form.getByRole('button', { name: 'Fund float' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm the float move' });
  await expect(dialog).toContainText('₦200,000.00 moves from the collections pool');
  await expect(dialog).toContainText('to provider A');
  await expect(dialog).toContainText(/whose float on our books goes from ₦[\d,.]+ to ₦[\d,.]+/);
  await expect(page.getByLabel('Loading')).toHaveCount(0);
  await expectAccessible(page, 'console-float-move-preview');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Funded provider' })).toHaveCount(0);

  await form.getByRole('button', { name: 'Fund float' }).click();
  const since = Date.now() - 1;
  await dialog.getByRole('button', { name: 'Move ₦200,000.00' }).click();
  const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
  const done = page.getByRole('status').filter({ hasText: 'Funded provider a with ₦200,000.00' });
  await expect(stepUp.or(done).first()).toBeVisible();
  if (await stepUp.isVisible()) await typeCode(page, 'Confirmation code', await newestCode(request, OPERATOR, 'mailbox', since));
  await expect(done).toBeVisible();
});
