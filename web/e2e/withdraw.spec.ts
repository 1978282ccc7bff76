import { expect, test } from '@playwright/test';
import { readyCustomer, signInWithPin, tier2, typePin } from './customer';
import { api, expectAccessible } from './support';

/**
 * Issue 43: money out. Below Tier 2 the withdraw screen says what is needed and links to KYC; a Tier 2 customer picks
 * the bank, types the account number, sees the name the bank gives back, the fee and the total before the PIN pad,
 * and follows the withdrawal to "paid". The sandbox processor pays any account number but the magic ones
 * (docs/sandbox.md); 0123456789 is CHINEDU NWOSU at every bank.
 */
const OPERATOR = 'ops-withdraw@example.com';

test('below Tier 2 the withdraw screen asks for Tier 2 and links to verification', async ({ page, request }) => {
  const c = await readyCustomer(request, OPERATOR, 0);
  await signInWithPin(page, c);
  await page.getByRole('main').getByRole('link', { name: 'Withdraw to bank' }).click();
  await expect(page.getByRole('heading', { name: 'Withdraw to bank' })).toBeVisible();
  const needs = page.getByRole('main').getByRole('alert');
  await expect(needs).toContainText('need Tier 2 verification');
  await expect(needs.getByRole('link', { name: 'Raise my tier' })).toHaveAttribute('href', '/kyc');
  await expectAccessible(page, 'withdraw below Tier 2');
});

test('a Tier 2 customer withdraws to a bank account: the name, the fee and the total, the PIN, paid', async ({ page, request }) => {
  const c = await readyCustomer(request, OPERATOR, 20_000);
  await tier2(request, c, 'Ada Obi');
  const before = (await api(request, c.token, 'getWalletStateBearerWallet', {}, 'GET')).balance;
  await signInWithPin(page, c);

  await page.getByRole('main').getByRole('link', { name: 'Withdraw to bank' }).click();
  await page.getByRole('combobox', { name: 'Bank' }).selectOption({ label: 'Guaranty Trust Bank' });
  await page.getByRole('textbox', { name: 'Account number (10 digits)' }).fill('0123456789');
  await page.getByRole('button', { name: 'Check account' }).click();
  await expect(page.getByTestId('account-name')).toHaveText('Account name: CHINEDU NWOSU (Guaranty Trust Bank)');
  await page.getByLabel('Amount (₦)').fill('5000');
  await expect(page.getByTestId('fee')).toHaveText('₦50.00');
  await expect(page.getByTestId('total')).toHaveText('₦5,050.00');
  await expectAccessible(page, 'withdraw: the name, the fee and the total');

  await typePin(page);
  const status = page.getByTestId('withdrawal-status');
  await expect(status).toContainText('Withdrawal paid', { timeout: 30_000 });
  await expect(status).toContainText('₦5,000.00 was sent to CHINEDU NWOSU, Guaranty Trust Bank.');
  // Amount and fee left the wallet, once.
  await expect(page.getByText('Wallet balance after the withdrawal: ₦14,950.00')).toBeVisible();
  await expectAccessible(page, 'withdrawal paid');
  expect(before).toBe(20_000);
});
