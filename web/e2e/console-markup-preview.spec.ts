import { expect, test } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { api, expectAccessible } from './support';
import * as ops from '../src/api/operations';

/**
 * Issue 44: a markup change shows which prices change, old and new, before it is set; cancelled, nothing changes.
 */
const OPERATOR = 'ops-console-markup@example.com';
const naira = (text: string) => Number(text.replace(/[₦,]/g, ''));

test('the markup preview shows the prices that change', async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  // One e-mailed code per address in a while: the browser's sign-in gives the token the checks below use too.
  const signedIn = page.waitForResponse((r) => r.url().includes(ops.verifyLoginOtp) && r.ok());
  await consoleSignIn(page, request, OPERATOR, '/console/catalogue');
  const token = (await (await signedIn).json()).session.accessToken as string;
  const before = (await api(request, token, 'adminListMarkupsBearerAdmin', {}, 'GET')).items;
  await expect(page.getByRole('heading', { name: 'Catalogue and pricing', level: 1 })).toBeVisible();
  const form = page.getByRole('form', { name: 'Set a markup' });
  await form.getByRole('combobox', { name: 'Service' }).click();
  await page.getByRole('option', { name: 'data', exact: true }).click();
  await form.getByLabel('Value').fill('75');
  await form.getByRole('button', { name: 'Set markup' }).click();

  const dialog = page.getByRole('dialog', { name: 'Confirm the markup' });
  await expect(dialog.getByRole('status')).toHaveText(/^\d+ prices? change at provider [A-Z] \(what customers pay\):$/);
  const table = dialog.getByRole('table');
  await expect(table).toBeVisible();
  const rows = table.getByRole('row');
  expect(await rows.count()).toBeGreaterThan(1);
  // Each price that changes: wholesale plus the new flat ₦75, and different from the old one.
  for (const row of (await rows.all()).slice(1, 4)) {
    const cells = (await row.getByRole('cell').allInnerTexts()).map((t) => t.trim());
    const [wholesale, old, next] = cells.slice(1).map(naira);
    expect(next).toBe(wholesale + 75);
    expect(old).not.toBe(next);
  }
  await expectAccessible(page, 'console-markup-preview');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect((await api(request, token, 'adminListMarkupsBearerAdmin', {}, 'GET')).items).toEqual(before);
});
