import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { parseCsv, pdfText } from '../../test/helpers/statement-files';
import { readyCustomer, signInWithPin, TX_PIN } from './customer';
import { api, expectAccessible } from './support';

/**
 * Issue 43: the history's dates and search narrow both lists, and the statement for the chosen dates downloads as CSV
 * and PDF, its opening and closing balances reconciling with its lines and the wallet.
 */
const lagosDay = (offsetDays = 0) => new Date(Date.now() + 3_600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);

test('history: filter by dates and search, download the statement as CSV and PDF', async ({ page, request }) => {
  const c = await readyCustomer(request, null, 20_000);
  await api(request, c.token, 'debitWalletFnBearerWallet', { amount: 500, note: 'rent for June', pin: TX_PIN });
  await api(request, c.token, 'buyAirtimeBearerVTU', { network: 'mtn', phone: '08031234567', amount: 1000, pin: TX_PIN });
  const balance = (await api(request, c.token, 'getWalletStateBearerWallet', {}, 'GET')).balance as number;
  await signInWithPin(page, c);
  await page.goto('/transactions');

  const list = page.getByRole('list').filter({ has: page.getByRole('listitem') });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await page.getByLabel('Search', { exact: true }).fill('0803123');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem')).toContainText('08031234567');
  await page.getByLabel('Search', { exact: true }).fill('rent');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem')).toContainText('Wallet debit');
  await page.getByLabel('Search', { exact: true }).fill('');

  // A reversed range is said at the field, and nothing is asked of the service with it.
  await page.getByLabel('From', { exact: true }).fill(lagosDay(1));
  await page.getByLabel('To', { exact: true }).fill(lagosDay());
  await expect(page.getByText('The “To” date is before the “From” date.')).toBeVisible();
  await page.getByRole('button', { name: 'Download statement (CSV)' }).click();
  await expect(page.getByRole('alert')).toContainText('The “To” date is before the “From” date.');
  // Yesterday: nothing; today: all three.
  await page.getByLabel('From', { exact: true }).fill(lagosDay(-1));
  await page.getByLabel('To', { exact: true }).fill(lagosDay(-1));
  await expect(page.getByText('No transactions match.')).toBeVisible();
  await page.getByLabel('To', { exact: true }).fill(lagosDay());
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await page.getByText('Purchases', { exact: true }).click();
  await expect(page.getByRole('button', { name: /08031234567/ })).toBeVisible();
  await expectAccessible(page, 'history with dates and a search');

  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download statement (CSV)' }).click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toBe(`statement-${lagosDay(-1)}-to-${lagosDay()}.csv`);
  const rows = parseCsv(fs.readFileSync((await csv.path())!, 'utf8'));
  const head = new Map(rows.map((r) => [r[0], r[1]]));
  expect(rows[0][0]).toBe('Wallet statement');
  expect(head.get('Opening balance')).toBe('0.00');
  expect(Number(head.get('Closing balance'))).toBe(balance);
  const lines = rows.slice(rows.findIndex((r) => r[0] === 'Date (Lagos time)') + 1);
  expect(lines.map((l) => l[1])).toEqual(['Wallet funded', 'Wallet debit: rent for June', 'Airtime for 08031234567']);
  expect(Number(lines.at(-1)![4])).toBe(balance);
  await expect(page.getByRole('status')).toContainText('Statement downloaded');

  const pdfDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download statement (PDF)' }).click();
  const pdf = fs.readFileSync((await (await pdfDownload).path())!);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const text = await pdfText(pdf);
  expect(text).toContain('Wallet statement');
  expect(text).toContain(`NGN ${balance.toLocaleString('en-NG', { minimumFractionDigits: 2 })}`);
  expect(text).toContain('Airtime for 08031234567');
});
