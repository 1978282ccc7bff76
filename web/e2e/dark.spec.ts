import { expect, test } from '@playwright/test';
import { readyCustomer, signInWithPin } from './customer';
import { expectAccessible } from './support';

/**
 * Dark theme (issue 43): the app follows the phone's setting (prefers-color-scheme) and axe finds no contrast fault
 * on the sign-in, home, buy and settings screens in dark; Settings > Theme "Light" wins over the phone's setting and
 * stays on this device after a reload.
 */
test('dark theme: follows the system, axe-clean, and a Light choice kept on the device', async ({ page, request }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  const c = await readyCustomer(request, null);

  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expectAccessible(page, 'dark-sign-in');

  await signInWithPin(page, c);
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expectAccessible(page, 'dark-home');

  await page.goto('/buy?service=airtime');
  await expect(page.getByRole('textbox', { name: 'Phone number' })).toBeVisible();
  await expectAccessible(page, 'dark-buy');

  await page.goto('/settings');
  const theme = page.getByLabel('Theme');
  await expect(theme).toHaveValue('auto');
  await expectAccessible(page, 'dark-settings');

  await theme.selectOption('light');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  await page.reload();
  await expect(page.getByLabel('Theme')).toHaveValue('light');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  await expectAccessible(page, 'light-settings');

  await page.getByLabel('Theme').selectOption('dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
});
