import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { adminToken, api, apiSignIn, expectAccessible } from './support';

/**
 * Issue 44: fresh data and what waits. Two top-ups are paid at the processor but their webhooks are lost. On the
 * Top-ups screen one is verified by itself and the other settled by reconciliation: each row shows its new status,
 * and the underpaid one its flag, without a reload. The navigation's Support inbox and Reports carry their counts.
 */
const OPERATOR = 'ops-console-fresh@example.com';
const row = (page: Page, reference: string) => page.getByRole('row').filter({ hasText: reference });

test('a verified or reconciled top-up shows settled without a reload, an underpaid one flagged', async ({ page, request }) => {
  const email = `fresh-${randomUUID().slice(0, 8)}@example.com`;
  const customer = await apiSignIn(request, email);
  const topup = async (amount: number, paid: number) => {
    const intent = await api(request, customer, 'createTopupIntentBearerWallet', { amount });
    await request.post('/sandbox/processor/pay', {
      data: { reference: intent.reference, outcome: 'success', webhook: false, amount: paid },
    });
    return intent.reference as string;
  };
  const verified = await topup(3000, 3000);
  const reconciled = await topup(5000, 4000);
  // Something waits for support and for the reports' readers: an unanswered thread and an open report.
  const thread = (await api(request, customer, 'getOrCreateThreadBearerSupport')).thread;
  await api(request, customer, 'sendSupportMessageBearerSupport', { threadId: thread.id, body: 'My top-up has not arrived' });
  const operator = await adminToken(request, 'ops-console-fresh-api@example.com');

  await page.setViewportSize({ width: 1280, height: 860 });
  await consoleSignIn(page, request, OPERATOR, `/console/topups?kind=intents&email=${encodeURIComponent(email)}`);
  await expect(page.getByRole('heading', { name: 'Top-ups', level: 1 })).toBeVisible();
  await expect(row(page, verified).getByText('pending', { exact: true })).toBeVisible();
  await expect(row(page, reconciled).getByText('pending', { exact: true })).toBeVisible();
  const queues = await api(request, operator, 'adminDashboardQueuesBearerAdmin', {}, 'GET');
  const nav = page.getByRole('navigation', { name: 'Console' });
  await expect(nav.getByRole('link', { name: `Support inbox, ${queues.support.awaitingReply} waiting`, exact: true })).toBeVisible();
  await expectAccessible(page, 'console-topups-pending');

  // One verify: credited once, and the row follows.
  await row(page, verified)
    .getByRole('button', { name: `Verify ${verified}` })
    .click();
  await expect(page.getByRole('status').filter({ hasText: `${verified} is paid: the wallet was credited.` })).toBeVisible();
  await expect(row(page, verified).getByText('success', { exact: true })).toBeVisible();
  await expect(row(page, verified).getByRole('button', { name: /^Verify/ })).toHaveCount(0);

  // Reconciliation as a job: when it ends, the other row shows settled and underpaid, with no reload.
  await page.getByRole('button', { name: 'Run reconciliation' }).click();
  const job = page.getByRole('group', { name: 'Reconciliation' });
  await expect(job.getByTestId('job-progress')).toHaveText(/^(\d+) of \1 done, finished/, { timeout: 60_000 });
  await expect(row(page, reconciled).getByText('success', { exact: true })).toBeVisible();
  await expect(row(page, reconciled).getByText('underpaid by ₦1,000.00')).toBeVisible();
  await expect(row(page, reconciled)).toContainText('₦4,000.00 of ₦5,000.00');
  expect((await api(request, customer, 'getWalletStateBearerWallet', {}, 'GET')).balance).toBe(7000);

  // The flagged list holds it.
  await page.getByRole('combobox', { name: 'Amount paid' }).click();
  await page.getByRole('option', { name: 'Under- or overpaid' }).click();
  await expect(page).toHaveURL(/paid=different/);
  await expect(row(page, reconciled)).toBeVisible();
  await expect(row(page, verified)).toHaveCount(0);
  await expectAccessible(page, 'console-topups-flagged');

  // The customer's report waits on Reports, counted in the navigation (polled; here read again on a reload).
  const log = (await api(request, customer, 'getWalletStateBearerWallet', {}, 'GET')).log;
  await api(request, customer, 'createTransactionReportBearerReports', {
    reference: log[0].reference,
    category: 'wrong_amount',
    description: 'I paid 4,000 but asked for 5,000',
  });
  await row(page, reconciled).getByRole('link', { name: email }).click();
  await expect(page.getByRole('heading', { name: email, level: 1 })).toBeVisible();
  const open = (await api(request, operator, 'adminDashboardQueuesBearerAdmin', {}, 'GET')).reports.open;
  await page.reload();
  await expect(nav.getByRole('link', { name: `Reports, ${open} waiting`, exact: true })).toBeVisible();
});
