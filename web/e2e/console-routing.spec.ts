import { expect, test } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { api } from './support';
import * as ops from '../src/api/operations';

/**
 * Issue 45: an admin changes a network's provider order in the console, by the providers' names, confirms the before
 * and after, and sees it set in the console (and the service answers it); cleared, the default is back.
 */
const OPERATOR = 'ops-console-routing@example.com';

test('provider routing: a network order changed by name, confirmed, shown as set in the console, then cleared', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  const signedIn = page.waitForResponse((r) => r.url().includes(ops.verifyLoginOtp) && r.ok());
  await consoleSignIn(page, request, OPERATOR, '/console/routing');
  const token = (await (await signedIn).json()).session.accessToken as string;
  await expect(page.getByRole('heading', { name: 'Provider routing', level: 1 })).toBeVisible();

  const data = page.getByRole('region', { name: 'Data' });
  const glo = data.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Glo', exact: true }) });
  await expect(glo).toContainText('SME data A → SME data B');
  await expect(glo).toContainText('Default');

  await glo.getByRole('button', { name: 'Change data, Glo' }).click();
  const dialog = page.getByRole('dialog', { name: 'Provider order: data, Glo' });
  await dialog.getByRole('combobox', { name: 'First provider' }).click();
  await page.getByRole('option', { name: 'SME data B' }).click();
  await dialog.getByRole('combobox', { name: 'Second provider (fallback)' }).click();
  await page.getByRole('option', { name: 'SME data A' }).click();
  await dialog.getByRole('button', { name: 'Review the change' }).click();
  await expect(dialog.getByRole('status')).toHaveText(/^Before: SME data A → SME data B\. After: SME data B → SME data A\./);
  await dialog.getByRole('button', { name: 'Set this order' }).click();
  await expect(dialog).toBeHidden();

  await expect(glo).toContainText('SME data B → SME data A');
  await expect(glo).toContainText('Set in console');
  const mtn = data.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'MTN', exact: true }) });
  await expect(mtn).toContainText('SME data A → SME data B');
  const served = (await api(request, token, 'adminGetRoutingBearerAdmin', {}, 'GET')).items.find(
    (i: { service: string }) => i.service === 'data',
  );
  expect(served.routes.find((r: { network: string | null }) => r.network === 'glo')).toMatchObject({
    source: 'console',
    own: true,
    providers: [
      { id: 'b', name: 'SME data B' },
      { id: 'a', name: 'SME data A' },
    ],
  });

  await glo.getByRole('button', { name: 'Clear data, Glo' }).click();
  await expect(glo).toContainText('SME data A → SME data B');
  await expect(glo).toContainText('Default');
});
