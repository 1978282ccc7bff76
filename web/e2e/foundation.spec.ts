import { expect, test } from '@playwright/test';
import { checkWidths, expectAccessible } from './support';

/**
 * The app's foundation: an unknown address gets the app's own not-found page (translated, with a way home), and a
 * screen that fails shows its route's error component, whose "Try again" brings the screen back.
 */
test('an unknown address shows the not-found page, translated, with a way home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { level: 1, name: 'This page does not exist.' })).toBeVisible();
  await expect(page.getByText('Not Found', { exact: true })).toHaveCount(0);
  await expectAccessible(page, 'not-found');
  await checkWidths(page, 'not-found');

  // The language saved on this device is used here too.
  await page.evaluate(() => localStorage.setItem('vtu.language', 'pcm'));
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('This page does not exist.');
  await page.evaluate(() => localStorage.removeItem('vtu.language'));
  await page.reload();

  await page.getByRole('link', { name: 'Go to home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('textbox', { name: /e-?mail/i })).toBeVisible();
});

test.describe('a failing screen', () => {
  // The service worker would fetch the screen's code itself, out of the page's request interception.
  test.use({ serviceWorkers: 'block' });

  test("a screen whose code cannot be downloaded shows the route's error, and Try again recovers", async ({ page }) => {
    // The receipt check's chunk fails to download (offline, or replaced by a new version of the app).
    const chunk = /\/assets\/ReceiptCheck-[\w-]+\.js$/;
    await page.route(chunk, (route) => route.abort('internetdisconnected'));
    await page.goto('/receipt/no-such-receipt');
    await expect(page.getByRole('alert')).toContainText('No connection. Check your internet and try again.');
    await expect(page.getByRole('heading', { level: 1, name: 'Receipt' })).toHaveCount(0);
    await expectAccessible(page, 'route-error');

    await page.unroute(chunk);
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Receipt' })).toBeVisible();
  });
});
