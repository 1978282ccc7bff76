import { expect, test, type Page } from '@playwright/test';
import { consoleSignIn } from './console-support';

/**
 * Issue 44: every console screen is a route of its own with a typed query. A deep link with a filter opens the
 * filtered list and a reload keeps it; a value the screen does not take (an offset that is not a number, an unknown
 * status) opens the screen's default instead of failing; an address the console does not have is the console's
 * not-found page, inside its frame; each screen names the document.
 */
const OPERATOR = 'ops-console-addresses@example.com';

const status = (page: Page) => page.getByRole('combobox', { name: 'Status' });

test('a console address keeps its filter through a reload; a bad value falls back; an unknown one is not found', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  await consoleSignIn(page, request, OPERATOR, '/console/approvals?status=approved&offset=abc');
  await expect(page.getByRole('heading', { name: 'Approvals', level: 1 })).toBeVisible();
  await expect(status(page)).toHaveValue('approved');
  await expect(page.getByRole('table', { name: 'approved approval requests, newest first' })).toBeVisible();
  await expect(page).toHaveTitle('Approvals · Operator console');
  await expect(page.getByRole('link', { name: 'Approvals' })).toHaveAttribute('aria-current', 'page');

  await page.reload();
  await expect(status(page)).toHaveValue('approved');
  await expect(page.getByRole('table', { name: 'approved approval requests, newest first' })).toBeVisible();

  // A filter chosen on the screen goes into the address, and a reload shows it.
  await status(page).click();
  await page.getByRole('option', { name: 'rejected', exact: true }).click();
  await expect(page).toHaveURL(/[?&]status=rejected(&|$)/);
  await page.reload();
  await expect(status(page)).toHaveValue('rejected');

  // An unknown status: the screen's default (pending).
  await page.goto('/console/approvals?status=deleted');
  await expect(status(page)).toHaveValue('pending');

  await page.goto('/console');
  await expect(page).toHaveTitle('Dashboard · Operator console');

  await page.goto('/console/no-such-screen');
  await expect(page.getByRole('heading', { name: 'Not found', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Console' })).toBeVisible();
  await expect(page).toHaveTitle('Not found · Operator console');
  await page.goto('/console/customers/some-id/extra');
  await expect(page.getByRole('heading', { name: 'Not found', level: 1 })).toBeVisible();
});
