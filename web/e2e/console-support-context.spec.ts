import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { readyCustomer, TX_PIN } from './customer';
import { api, expectAccessible } from './support';
import * as ops from '../src/api/operations';

/**
 * Issue 44: the support thread's customer. A customer who bought airtime writes to support quoting the purchase's
 * reference; the operator opens the thread and sees, beside it, the customer's name, balance, KYC tier and last
 * purchases and top-ups (at 1280 and 390 px), follows the message's reference to the purchase search and the top-up's
 * to Top-ups, and finds the customer again by name.
 */
const OPERATOR = 'ops-console-support@example.com';

test('an operator reads a thread beside its customer, follows its references and finds the customer by name', async ({ page, request }) => {
  const c = await readyCustomer(request, null, 2_000);
  // A surname of letters only (a text with a digit is not looked up as a name), unique to this run.
  const surname = `Ctx${randomUUID()
    .slice(0, 8)
    .replace(/\d/g, (d) => 'ghijklmnop'[Number(d)])}`;
  await api(request, c.token, 'updateProfileBearerSettings', { fullName: `Ifeoma ${surname}` });
  const res = await request.post(ops.buyAirtime, {
    data: { data: { network: 'mtn', phone: '08031234567', amount: 100, pin: TX_PIN } },
    headers: { authorization: `Bearer ${c.token}`, 'idempotency-key': randomUUID() },
  });
  const body = await res.json();
  expect(body.ok, JSON.stringify(body)).toBe(true);
  const reference = body.transaction.reference as string;
  const thread = (await api(request, c.token, 'getOrCreateThreadBearerSupport')).thread;
  await api(request, c.token, 'sendSupportMessageBearerSupport', {
    threadId: thread.id,
    body: `My airtime (${reference}) did not arrive`,
  });

  await page.setViewportSize({ width: 1280, height: 900 });
  await consoleSignIn(page, request, OPERATOR, '/console/support');
  await expect(page.getByRole('heading', { name: 'Support inbox', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: c.email }).click();
  const customer = page.getByRole('region', { name: 'Customer', exact: true });
  await expect(customer).toContainText(`Ifeoma ${surname}`);
  await expect(customer).toContainText('Balance₦1,900.00');
  await expect(customer).toContainText('KYC tier1');
  await expect(customer.getByText('active', { exact: true })).toBeVisible();
  await expect(customer.getByRole('link', { name: c.email })).toHaveAttribute('href', `/console/customers/${c.id}`);
  const purchases = customer.getByRole('region', { name: 'Last purchases' });
  await expect(purchases.getByRole('link', { name: reference })).toHaveAttribute('href', `/console/transactions?t_reference=${reference}`);
  await expect(purchases).toContainText('₦100.00 airtime to 08031234567');
  const topup = customer.getByRole('region', { name: 'Last top-ups' }).getByRole('link').first();
  const topupReference = (await topup.textContent())!;
  expect(topupReference).toMatch(/^top_[0-9A-Z]{26}$/);
  const conversation = page.getByRole('region', { name: 'Conversation' });
  await expect(conversation).toContainText(`My airtime (${reference}) did not arrive`);
  await expectAccessible(page, 'console-support-thread');

  // On a 390-px phone the customer and the conversation stack, nothing scrolling sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(customer).toContainText('Balance₦1,900.00');
  await expect(conversation.getByRole('link', { name: reference })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await expectAccessible(page, 'console-support-thread-phone');
  await page.setViewportSize({ width: 1280, height: 900 });

  // The message's reference opens the purchase search filtered to it.
  await conversation.getByRole('link', { name: reference }).click();
  await expect(page).toHaveURL(new RegExp(`/console/transactions\\?t_reference=${reference}`));
  const found = page.getByRole('group', { name: /^Purchases found/ });
  await expect(found).toContainText(reference);
  await expect(found).toContainText(c.email);

  // The top-up's reference opens Top-ups filtered to it.
  await page.goBack();
  await expect(customer).toBeVisible();
  await topup.click();
  await expect(page).toHaveURL(new RegExp(`/console/topups\\?kind=intents&reference=${topupReference}`));
  await expect(page.getByRole('row').filter({ hasText: topupReference })).toBeVisible();

  // The customer is found by name: the surname alone, or the whole name's beginning in another case.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Customers', exact: true }).click();
  for (const q of [surname.toLowerCase(), `IFEOMA ${surname.slice(0, 4).toUpperCase()}`]) {
    await page.getByLabel('E-mail, phone, username, name, reference or account number').fill(q);
    // The rows shown are this search's answer, not the previous one's kept on screen while it loads.
    const answered = page.waitForResponse((r) => r.url().includes('adminSearchCustomers') && new URL(r.url()).searchParams.get('q') === q);
    await page.getByRole('button', { name: 'Search' }).click();
    await answered;
    const row = page.getByRole('row').filter({ hasText: c.email });
    await expect(row).toContainText(`Ifeoma ${surname}`);
    await expect(row.getByRole('cell', { name: 'name', exact: true })).toBeVisible();
  }
  await page.getByRole('link', { name: c.email }).click();
  await expect(page.getByRole('heading', { name: c.email, level: 1 })).toBeVisible();
});
