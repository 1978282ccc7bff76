import { expect, test } from '@playwright/test';
import { readyCustomer, typePin } from './customer';
import { checkWidths, expectAccessible } from './support';

/**
 * The other areas in a real browser: electricity with the meter check and the token shown large,
 * exam PINs, rewards and savings, orders and the support chat, another language; axe on each screen and both widths.
 * The customer is prepared through the API (readyCustomer: Tier 1 by the operator, the wallet credited by an operator
 * adjustment, the PINs with an e-mailed step-up) so this journey starts where the first one ends.
 */
test('bills, rewards, orders and languages', async ({ page, request }) => {
  const c = await readyCustomer(request, 'ops-bills@example.com');
  const email = c.email;

  // Sign in in the browser with the login PIN (a second session of the same person); a wrong PIN is refused first.
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign in with login PIN' }).click();
  await page.getByLabel('E-mail or username').fill(email);
  await page.getByLabel('Login PIN').fill('000000');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText(/^That e-mail or PIN is not right\.( Tries left: \d+\.)?$/);
  await expectAccessible(page, 'sign-in-pin');
  await page.getByLabel('Login PIN').fill('864209');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('balance')).toHaveText('₦20,000.00');

  // Electricity: the meter is checked (customer name) before the PIN; the token is shown large.
  await page.goto('/buy?service=electricity');
  await page.getByLabel('Electricity company').selectOption({ index: 1 });
  await page.getByRole('textbox', { name: 'Meter number' }).fill('45012345678');
  await page.getByLabel('Amount (₦)').fill('1500');
  await page.getByRole('textbox', { name: 'Phone number' }).fill('08031234567');
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByText(/Customer: /)).toBeVisible();
  await expectAccessible(page, 'buy-electricity');
  await checkWidths(page, 'buy-electricity');
  await typePin(page);
  await expect(page.getByTestId('purchase-status')).toContainText('Successful');
  await expect(page.getByTestId('token')).toHaveText(/\d{4}/);

  // Exam PINs: the PINs are shown on the result.
  await page.goto('/buy?service=exam');
  const exam = page.getByRole('combobox', { name: 'Exam' });
  await expect(exam.getByRole('option', { name: /NECO/ })).toBeAttached();
  const neco = (await exam.getByRole('option', { name: /NECO/ }).textContent())!;
  await exam.selectOption({ label: neco });
  await page.getByRole('textbox', { name: 'Phone number' }).fill('08031234567');
  await page.getByRole('button', { name: 'Review' }).click();
  await typePin(page);
  await expect(page.getByTestId('purchase-status')).toContainText('Successful');
  await expect(page.getByText('Your PINs')).toBeVisible();

  // Rewards and savings: referral code, check-in, a savings lock with the PIN.
  await page.goto('/rewards');
  await expect(page.getByTestId('referral-code')).toHaveText(/^[A-Z0-9]{4,16}$/);
  await page.getByRole('button', { name: /Check in today/ }).click();
  await expect(page.getByRole('button', { name: 'Checked in today' })).toBeDisabled();
  await page.getByLabel('Amount to lock (₦)').fill('1000');
  await typePin(page);
  await expect(page.getByText(/Locked now: ₦1,000.00/)).toBeVisible();
  await expectAccessible(page, 'rewards');
  await checkWidths(page, 'rewards');

  // Orders and help: a message to support appears in the conversation.
  await page.goto('/orders');
  await page.getByLabel('Your message').fill('Hello, my data has not arrived.');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByRole('log', { name: 'Conversation with support' })).toContainText('Hello, my data has not arrived.');
  await expectAccessible(page, 'orders');
  await checkWidths(page, 'orders');

  // Another language: Yoruba, remembered after a reload; money stays en-NG.
  await page.goto('/settings');
  await page.getByLabel('Language').selectOption('yo');
  await expect(page.getByRole('heading', { name: 'Ètò', level: 1 })).toBeVisible();
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Ilé', level: 1 })).toBeVisible();
  await expect(page.getByTestId('balance')).toHaveText(/^₦\d{1,3}(,\d{3})*\.\d{2}$/);
  await expectAccessible(page, 'home-yo');
});
