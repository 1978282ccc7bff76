import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { readyCustomer, signInWithPin, TX_PIN } from './customer';
import { api, expectAccessible, newestCode, typeCode } from './support';
import * as ops from '../src/api/operations';

/**
 * The console's money journeys (issue #30): a purchase the provider never settles is refunded by one operator and
 * approved by a second (four-eyes, both through step-up); a frozen customer's app says so and refuses to pay;
 * reconciliation shows its progress; a CSV export is downloaded and read.
 */
const PREP = 'ops-console-api@example.com';
const MAKER = 'ops-console-maker@example.com';
const CHECKER = 'ops-console-second@example.com';

/**
 * Step-up in the browser when the service asks for it: the e-mailed code typed into the "Confirm it is you" dialog.
 * `done` is what the screen shows once the action went through (with or without a step-up).
 */
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

test('a purchase the provider never settles: one operator requests the refund, a second approves it', async ({
  page,
  browser,
  request,
}) => {
  const c = await readyCustomer(request, PREP, 2_000);
  // A recipient ending 4040: the sandbox provider never settles it and every requery is "unknown".
  const res = await request.post(ops.buyAirtime, {
    data: { data: { network: 'mtn', phone: '08031234040', amount: 100, pin: TX_PIN } },
    headers: { authorization: `Bearer ${c.token}`, 'idempotency-key': randomUUID() },
  });
  const body = await res.json();
  expect(body.ok, JSON.stringify(body)).toBe(true);
  const bought = body.transaction as { id: string; reference: string; amount: number };
  const before = (await api(request, c.token, 'getWalletStateBearerWallet', {}, 'GET')).balance as number;

  await consoleSignIn(page, request, MAKER, '/console/transactions');
  await expect(page.getByRole('heading', { name: 'Transactions', level: 1 })).toBeVisible();
  // Listed once VTU_STUCK_AFTER_MS (3 s in playwright.config.ts) has passed.
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('button', { name: `Resolve ${bought.reference}` })).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 30_000 });
  // The search finds the same purchase by its reference, with its customer and the stuck list's actions.
  const searchForm = page.getByRole('form', { name: 'Search purchases' });
  await searchForm.getByLabel('Reference').fill(bought.reference);
  await searchForm.getByRole('button', { name: 'Search' }).click();
  const found = page.getByRole('group', { name: /^Purchases found/ });
  await expect(found.getByRole('row')).toHaveCount(2);
  await expect(found).toContainText(c.email);
  await expect(found.getByRole('button', { name: `Resolve found purchase ${bought.reference}` })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`t_reference=${bought.reference}`));
  await expectAccessible(page, 'console-transaction-search');
  await page.getByRole('button', { name: `Requery ${bought.reference}` }).click();
  await expect(page.getByRole('status').filter({ hasText: bought.reference })).toContainText('processing');

  await page.getByRole('button', { name: `Resolve ${bought.reference}` }).click();
  const resolve = page.getByRole('dialog', { name: `Resolve ${bought.reference}` });
  await resolve.getByLabel('How you confirmed the outcome with the provider').fill('Provider support confirmed it was never delivered');
  await expectAccessible(page, 'console-resolve');
  const since = Date.now() - 1;
  await resolve.getByRole('button', { name: 'Request resolution' }).click();
  await stepUp(page, request, MAKER, since, 'waits for a second operator');
  // Nothing moved before approval.
  expect((await api(request, c.token, 'getWalletStateBearerWallet', {}, 'GET')).balance).toBe(before);

  // The maker cannot approve their own request.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Approvals' }).click();
  const approveLabel = `Approve Purchase resolution of ₦${bought.amount.toFixed(2)}`;
  await page.getByRole('button', { name: approveLabel }).first().click();
  await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('dialog').getByRole('alert')).toBeVisible();

  // A second operator approves it, in their own browser.
  const second = await browser.newContext();
  const checker = await second.newPage();
  await consoleSignIn(checker, request, CHECKER, '/console/approvals');
  await expect(checker.getByRole('heading', { name: 'Approvals', level: 1 })).toBeVisible();
  await expectAccessible(checker, 'console-approvals');
  await checker.getByRole('button', { name: approveLabel }).first().click();
  const approve = checker.getByRole('dialog', { name: /^Approve: Purchase resolution/ });
  await approve.getByLabel('Note (optional)').fill('Checked with the provider too');
  const since2 = Date.now() - 1;
  await approve.getByRole('button', { name: 'Approve' }).click();
  await stepUp(checker, request, CHECKER, since2, 'approved');
  await second.close();

  // Refunded exactly once.
  await expect
    .poll(async () => (await api(request, c.token, 'getWalletStateBearerWallet', {}, 'GET')).balance as number, { timeout: 15_000 })
    .toBe(before + bought.amount);
});

test('freeze shows in the customer app; reconciliation shows progress; a CSV export downloads', async ({ page, browser, request }) => {
  const c = await readyCustomer(request, 'ops-console-prep@example.com', 1_000);
  // An open top-up for reconciliation to ask the processor about.
  await api(request, c.token, 'createTopupIntentBearerWallet', { amount: 500 });

  await consoleSignIn(page, request, 'ops-console-finance@example.com', '/console/customers');
  await page.getByLabel('E-mail, phone, username, name, reference or account number').fill(c.email);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: c.email }).click();
  await expect(page.getByRole('heading', { name: c.email, level: 1 })).toBeVisible();
  await expectAccessible(page, 'console-customer');
  await page.getByRole('button', { name: 'Freeze' }).click();
  const freeze = page.getByRole('dialog', { name: `Freeze ${c.email}` });
  await freeze.getByLabel('Reason').fill('Chargeback under investigation');
  await freeze.getByRole('button', { name: 'Freeze' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Chargeback under investigation' })).toBeVisible();

  // A purchase is refused; the customer's app shows the notice in the inbox.
  const refused = await (
    await request.post(ops.buyAirtime, {
      data: { data: { network: 'mtn', phone: '08031234567', amount: 100, pin: TX_PIN } },
      headers: { authorization: `Bearer ${c.token}`, 'idempotency-key': randomUUID() },
    })
  ).json();
  expect(refused.error.code).toBe('ACCOUNT_FROZEN');
  const customerContext = await browser.newContext();
  const app = await customerContext.newPage();
  await signInWithPin(app, c);
  await app.goto('/notifications');
  await expect(app.getByText('Your account is on hold').first()).toBeVisible();
  await customerContext.close();

  // Reconciliation as a job: progress until it is done.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Top-ups' }).click();
  await page.getByRole('button', { name: 'Run reconciliation' }).click();
  const job = page.getByRole('group', { name: 'Reconciliation' });
  await expect(job.getByTestId('job-progress')).toHaveText(/^(\d+) of \1 done, finished/, { timeout: 60_000 });
  await expect(job.getByText('done', { exact: true })).toBeVisible();
  await expectAccessible(page, 'console-reconciliation');

  // A CSV of today's ledger, downloaded and read.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Exports and jobs' }).click();
  await page.getByRole('combobox', { name: 'What' }).click();
  await page.getByRole('option', { name: 'Ledger' }).click();
  await page.getByRole('button', { name: 'Start export' }).click();
  const link = page.getByRole('group', { name: 'Export' }).getByRole('link', { name: 'Download CSV' });
  await expect(link).toBeVisible({ timeout: 60_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  const [header, ...rows] = csv.trim().split('\n');
  expect(header).toMatch(/reference/i);
  expect(rows.length).toBeGreaterThan(0);
  expect(csv).toContain('topup');
  await expectAccessible(page, 'console-exports');
});
