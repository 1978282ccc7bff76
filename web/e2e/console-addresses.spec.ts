import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { apiSignIn } from './support';

/**
 * Issue 44: every console screen is a route of its own with a typed query. A deep link with a filter opens the
 * filtered list and a reload keeps it; a value the screen does not take (an offset that is not a number, an unknown
 * status) opens the screen's default instead of failing; an address the console does not have is the console's
 * not-found page, inside its frame; each screen names the document.
 */
const OPERATOR = 'ops-console-addresses@example.com';

const found = (page: Page, q: string) => page.getByRole('row').filter({ hasText: q });

test('a console address keeps its filter through a reload; a bad value falls back; an unknown one is not found', async ({
  page,
  request,
}) => {
  const email = `addresses-${randomUUID().slice(0, 8)}@example.com`;
  await apiSignIn(request, email);
  await page.setViewportSize({ width: 1280, height: 860 });

  // A deep link to a filtered list, its offset not a number: the first page of that list.
  await consoleSignIn(page, request, OPERATOR, `/console/customers?q=${encodeURIComponent(email)}&offset=abc`);
  await expect(page.getByRole('heading', { name: 'Customers', level: 1 })).toBeVisible();
  await expect(page.getByLabel('E-mail, phone, username, name, reference or account number')).toHaveValue(email);
  await expect(found(page, email).getByRole('link', { name: email })).toBeVisible();
  await expect(page).toHaveTitle('Customers · Operator console');
  await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Customers' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await page.reload();
  await expect(found(page, email).getByRole('link', { name: email })).toBeVisible();

  // A filter chosen on a screen goes into the address, and a reload shows it; an unknown value shows the default.
  const status = page.getByRole('combobox', { name: 'Status' });
  await page.goto('/console/approvals?status=approved');
  await expect(page.getByRole('heading', { name: 'Approvals', level: 1 })).toBeVisible();
  await expect(status).toHaveValue('approved');
  await status.click();
  await page.getByRole('option', { name: 'rejected', exact: true }).click();
  await expect(page).toHaveURL(/[?&]status=rejected(&|$)/);
  await page.reload();
  await expect(status).toHaveValue('rejected');
  await page.goto('/console/approvals?status=deleted&offset=-5');
  await expect(status).toHaveValue('pending');

  await page.goto('/console');
  await expect(page).toHaveTitle('Dashboard · Operator console');

  // An address the console does not have: its not-found page, in the frame.
  for (const path of ['/console/no-such-screen', '/console/customers/some-id/more']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Not found', level: 1 })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Console' })).toBeVisible();
    await expect(page).toHaveTitle('Not found · Operator console');
  }
});
