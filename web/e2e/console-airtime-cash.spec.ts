import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { readyCustomer, TX_PIN } from './customer';
import { api, checkWidths, expectAccessible, newestCode, typeCode } from './support';
import * as ops from '../src/api/operations';

/**
 * The console's airtime-to-cash screen (issue 32): a customer's request the provider has received nothing for is
 * listed for a finance operator; the operator requeries it (the provider answers "awaiting", nothing is credited), then closes it with nothing
 * credited after confirming with the provider, through step-up. The customer's wallet never moves.
 */
/** The admin (ADMIN_EMAILS) who prepares the customer and grants the finance role, through the API only. */
const ADMIN = 'ops-a2c@example.com';

/** Step-up when the service asks for it: the e-mailed code typed into the "Confirm it is you" dialog. */
async function stepUp(page: Page, request: APIRequestContext, email: string, since: number, done: string) {
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  const finished = page.getByRole('status').filter({ hasText: done });
  await expect(dialog.or(finished).first()).toBeVisible();
  if (await dialog.isVisible()) {
    await typeCode(page, 'Confirmation code', await newestCode(request, email, 'mailbox', since));
    await expect(dialog).toBeHidden();
  }
  await expect(finished).toBeVisible();
}

test('a customer’s airtime-to-cash request is listed, requeried, and closed with nothing credited', async ({ page, request }) => {
  const c = await readyCustomer(request, ADMIN, 0);
  // A sending number ending 5555: in the sandbox nothing ever arrives for it.
  const phone = `0803${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}5555`;
  const since = Date.now() - 1;
  await api(request, c.token, 'sendAirtimeCashNumberCodeBearerVTU', { phone });
  await api(request, c.token, 'verifyAirtimeCashNumberBearerVTU', { phone, code: await newestCode(request, phone, 'sms', since) });
  const res = await request.post(ops.requestAirtimeCash, {
    data: { data: { network: 'mtn', phone, amount: 1000, pin: TX_PIN } },
    headers: { authorization: `Bearer ${c.token}`, 'idempotency-key': randomUUID() },
  });
  const body = await res.json();
  expect(body.ok, JSON.stringify(body)).toBe(true);
  const reference = body.request.reference as string;

  await page.setViewportSize({ width: 1280, height: 860 });
  const operator = `finance-${randomUUID().slice(0, 8)}@example.com`;
  await consoleSignIn(page, request, operator, '/console/airtime-cash');
  await expect(page.getByRole('heading', { name: 'Not an operator', level: 1 })).toBeVisible();
  await api(request, c.admin, 'adminGrantRoleBearerAdmin', { email: operator, role: 'finance' });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Airtime to cash', level: 1 })).toBeVisible();
  // Only the awaiting ones: the customer's request is there, with its sending number and what it would credit.
  await page.getByRole('combobox', { name: 'Show' }).click();
  await page.getByRole('option', { name: 'Awaiting', exact: true }).click();
  await expect(page).toHaveURL(/show=awaiting/);
  const table = page.getByRole('group', { name: /^Airtime-to-cash requests/ });
  const row = table.getByRole('row').filter({ hasText: reference });
  await expect(row).toContainText(`${phone} (mtn)`);
  await expect(row).toContainText('₦800.00 expected');
  await expect(row).toContainText('awaiting');
  await expectAccessible(page, 'console-airtime-cash');
  await checkWidths(page, 'console-airtime-cash');

  await page.getByRole('button', { name: `Requery ${reference}` }).click();
  const notice = page.getByRole('status').filter({ hasText: reference });
  await expect(notice).toContainText('the provider answered "awaiting"; the request is awaiting.');
  // Counted: at least this requery (the reconciliation job may have asked the provider too on a busy machine).
  await expect(row).toContainText(/awaiting \([1-9]\d*\)/);

  await page.getByRole('button', { name: `Resolve ${reference}` }).click();
  const dialog = page.getByRole('dialog', { name: `Resolve ${reference}` });
  await dialog.getByRole('button', { name: 'Close with nothing credited' }).click();
  await expect(dialog.getByLabel('How the provider confirmed that nothing arrived')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('How the provider confirmed that nothing arrived').fill('Provider support confirmed no airtime arrived');
  await expectAccessible(page, 'console-airtime-cash-resolve');
  const stepUpSince = Date.now() - 1;
  await dialog.getByRole('button', { name: 'Close with nothing credited' }).click();
  await stepUp(page, request, operator, stepUpSince, 'closed with nothing credited; the request is expired');
  // No longer awaiting: gone from this filter; under "Expired" with the operator's note, and the wallet is untouched.
  await expect(page.getByRole('button', { name: `Requery ${reference}` })).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Show' }).click();
  await page.getByRole('option', { name: 'Expired', exact: true }).click();
  await expect(table.getByRole('row').filter({ hasText: reference })).toContainText('closed by an operator: Provider support confirmed');
  expect((await api(request, c.token, 'getWalletStateBearerWallet', {}, 'GET')).balance).toBe(0);
});
