import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { readyCustomer, tier2, TX_PIN } from './customer';
import { api, expectAccessible } from './support';
import * as ops from '../src/api/operations';

/**
 * The console's withdrawals (issue 43): the dashboard's "Stuck withdrawals" tile opens the stuck list (pending with the
 * processor past WITHDRAWAL_STUCK_AFTER_MINUTES, at least 5 minutes, so none here); a finance operator finds a
 * customer's pending withdrawal (account ending 2222: the sandbox processor keeps it pending), the processor pays it
 * without a webhook, and Requery applies the processor's answer: paid, and no longer offered.
 */
const ADMIN = 'ops-withdraw@example.com';

test('a pending withdrawal is listed for a finance operator, requeried and found paid', async ({ page, request }) => {
  const c = await readyCustomer(request, ADMIN, 10_000);
  await tier2(request, c, 'Sade Bello');
  const res = await request.post(ops.withdrawToBank, {
    data: { data: { bankCode: '058', accountNumber: '0123452222', amount: 2000, pin: TX_PIN } },
    headers: { authorization: `Bearer ${c.token}`, 'idempotency-key': randomUUID() },
  });
  const body = await res.json();
  expect(body.ok, JSON.stringify(body)).toBe(true);
  const reference = body.withdrawal.reference as string;

  await page.setViewportSize({ width: 1280, height: 860 });
  const operator = `finance-${randomUUID().slice(0, 8)}@example.com`;
  await api(request, c.admin, 'adminGrantRoleBearerAdmin', { email: operator, role: 'finance' });
  await consoleSignIn(page, request, operator, '/console');
  const tile = page.getByRole('link').filter({ hasText: 'Stuck withdrawals' });
  await expect(tile).toContainText('pending over 60 min');
  await tile.click();
  await expect(page).toHaveURL(/\/console\/withdrawals\?show=stuck/);
  await expect(page.getByRole('heading', { name: 'Withdrawals', level: 1 })).toBeVisible();
  await expect(page.getByText('Pending with the processor for more than 60 minutes, oldest first.')).toBeVisible();

  await page.getByRole('combobox', { name: 'Show' }).click();
  await page.getByRole('option', { name: 'Pending', exact: true }).click();
  await expect(page).toHaveURL(/show=pending/);
  const row = page
    .getByRole('group', { name: /^Withdrawals, newest first/ })
    .getByRole('row')
    .filter({ hasText: reference });
  await expect(row).toContainText(', Guaranty Trust Bank 0123452222');
  await expect(row).toContainText('₦2,000.00 + ₦50.00 fee');
  await expect(row).toContainText('pending');
  await expectAccessible(page, 'console-withdrawals');

  // The processor pays it and its webhook never comes: only a poll or a requery finds out.
  const ended = await request.post('/sandbox/processor/transfer', { data: { reference, outcome: 'success', webhook: false } });
  expect(ended.ok()).toBe(true);
  await page.getByRole('button', { name: `Requery ${reference}` }).click();
  await expect(page.getByRole('status').filter({ hasText: reference })).toContainText(
    'the processor answered "success"; the withdrawal is paid.',
  );
  await expect(page.getByRole('button', { name: `Requery ${reference}` })).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Show' }).click();
  await page.getByRole('option', { name: 'Paid', exact: true }).click();
  await expect(page.getByRole('row').filter({ hasText: reference })).toContainText('success');
  expect((await api(request, c.token, 'getWithdrawalBearerWallet', { reference }, 'GET')).withdrawal.status).toBe('success');
});
