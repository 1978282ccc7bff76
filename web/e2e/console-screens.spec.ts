import { expect, test } from '@playwright/test';
import { consoleSignIn, readmeShot } from './console-support';
import { api, apiSignIn, checkWidths, expectAccessible } from './support';

/**
 * Every console screen, reached through the side navigation: its heading, axe (no serious or critical finding),
 * and no sideways scrolling at 360 px, where the navigation is a menu behind a button. With CONSOLE_SCREENSHOTS=<dir>
 * the dashboard and the jobs are also saved there at 1280 px (the README's, under docs/images).
 */
const OPERATOR = 'ops-console-screens@example.com';
/** An admin (ADMIN_EMAILS) who grants the role, signed in through the API only. */
const GRANTER = 'ops-console-roles@example.com';
const README_SHOTS: Record<string, string> = { Dashboard: 'console-dashboard', 'Exports and jobs': 'console-jobs' };

test('every console screen is reachable, accessible and fits a phone', async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  await consoleSignIn(page, request, OPERATOR);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Console' });
  const names = await nav.getByRole('link').allInnerTexts();
  expect(names.length).toBeGreaterThanOrEqual(10);
  for (const name of names) {
    await nav.getByRole('link', { name, exact: true }).click();
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    await expect(page.getByLabel('Loading')).toHaveCount(0);
    await expectAccessible(page, `console ${name}`);
    if (README_SHOTS[name]) await readmeShot(page, README_SHOTS[name]);
    await checkWidths(page, `console-${name.replace(/\W+/g, '-').toLowerCase()}`);
  }

  // On a phone the navigation is a menu behind a button.
  await page.setViewportSize({ width: 360, height: 800 });
  await expect(nav).toBeHidden();
  await page.getByRole('button', { name: 'Console menu' }).click();
  await nav.getByRole('link', { name: 'Support inbox' }).click();
  await expect(page.getByRole('heading', { name: 'Support inbox', level: 1 })).toBeVisible();
  await expect(nav).toBeHidden();
});

test('a support operator sees only the screens of the role; another screen by its address says no in words', async ({ page, request }) => {
  const email = `support-${Date.now()}@example.com`;
  await page.setViewportSize({ width: 1280, height: 860 });
  await consoleSignIn(page, request, email);
  await expect(page.getByRole('heading', { name: 'Not an operator', level: 1 })).toBeVisible();
  await api(request, await apiSignIn(request, GRANTER), 'adminGrantRoleBearerAdmin', { email, role: 'support' });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Console' });
  for (const name of ['Customers', 'KYC queue', 'Transactions', 'Airtime to cash', 'Support inbox'])
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  for (const name of ['Approvals', 'Exports and jobs', 'Audit log', 'Dead letters', 'Growth settings', 'Catalogue and pricing'])
    await expect(nav.getByRole('link', { name, exact: true })).toHaveCount(0);
  await page.goto('/console/audit');
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  await expect(page.getByRole('alert').first()).toContainText(/not allowed/i);
});
