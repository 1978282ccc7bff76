import { expect, test } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { readyCustomer, signInWithPin, typePin } from './customer';
import { expectAccessible, newestCode, typeCode } from './support';

/**
 * Issue 45, price levels: the console's catalogue shows each level's price and margin and previews a price change
 * before asking a second admin for it; the app's Rewards shows my level and upgrades it with the PIN.
 */
// Its own admin: another spec signing ops@example.com in at the same time would meet the code's resend wait.
const OPERATOR = 'ops-price-levels@example.com';

test("the console lists plans with each level's price, previews a change and asks for its approval", async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await consoleSignIn(page, request, OPERATOR, '/console/catalogue');
  const section = page.getByRole('region', { name: 'Plans and price levels' });
  await expect(section).toBeVisible();
  const table = section.getByRole('table', { name: /data plans at provider/ });
  await expect(table.getByRole('columnheader', { name: 'Agent' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Wholesale' })).toBeVisible();
  await expect(table.getByRole('button', { name: /^Switch off / }).first()).toBeVisible();

  const form = section.getByRole('form', { name: "Change a level's price" });
  await form.getByLabel('Price', { exact: true }).click();
  await page.getByRole('option', { name: 'Markup (naira)' }).click();
  await form.getByLabel('Value').fill('20');
  await form.getByRole('button', { name: 'Preview' }).click();
  await expect(form.getByRole('table', { name: 'What the change would change' })).toBeVisible();
  await expect(page.getByLabel('Loading')).toHaveCount(0);
  await expectAccessible(page, 'console-plan-prices');

  await form.getByLabel('Reason').fill('agent promotion');
  const since = Date.now() - 1;
  await form.getByRole('button', { name: 'Ask for approval' }).click();
  const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
  const asked = page.getByRole('status').filter({ hasText: 'waits for a second admin' });
  await expect(stepUp.or(asked).first()).toBeVisible();
  if (await stepUp.isVisible()) await typeCode(page, 'Confirmation code', await newestCode(request, OPERATOR, 'mailbox', since));
  await expect(asked).toBeVisible();
});

test('Rewards shows my level and upgrades it for the fee with the PIN', async ({ page, request }) => {
  const c = await readyCustomer(request, null, 5_000);
  await signInWithPin(page, c);
  await page.goto('/rewards');
  const section = page.getByRole('region', { name: 'Price level' });
  await expect(section.getByText('Your level: Customer')).toBeVisible();
  await expect(section.getByText('API partner: given by the business. Contact support to ask for it.')).toBeVisible();
  await expectAccessible(page, 'rewards-price-level');
  await section.getByRole('button', { name: 'Upgrade to Agent for ₦2,000.00' }).click();
  await expect(section.getByText('Enter your PIN to pay ₦2,000.00 for Agent')).toBeVisible();
  await typePin(page);
  await expect(section.getByRole('status')).toHaveText('You are now Agent.');
  await expect(section.getByText('Your level: Agent')).toBeVisible();
});
