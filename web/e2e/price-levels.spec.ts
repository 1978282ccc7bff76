import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { readyCustomer, signInWithPin, TX_PIN, typePin } from './customer';
import { brokenWords } from './narrow';
import { expectAccessible, newestCode, typeCode } from './support';
import * as ops from '../src/api/operations';

/**
 * Issue 45, price levels: the console's catalogue shows each level's price and margin and previews a price change
 * before asking a second admin for it; the app's Rewards shows my level and upgrades it with the PIN; an Agent's
 * purchase names its level on the review and on its receipts.
 */
// Its own admin: another spec signing ops@example.com in at the same time would meet the code's resend wait.
const OPERATOR = 'ops-price-levels@example.com';
const EPIN_OPERATOR = 'ops-epin-prices@example.com';

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

test("the console lists recharge cards with each level's price and asks for a level's discount through four-eyes", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await consoleSignIn(page, request, EPIN_OPERATOR, '/console/catalogue');
  const section = page.getByRole('region', { name: 'Plans and price levels' });
  await section.getByLabel('Plans of').click();
  await page.getByRole('option', { name: 'Recharge cards (e-PINs)' }).click();
  const table = section.getByRole('table', { name: /^Recharge cards: the seller's price/ });
  await expect(table.getByRole('row', { name: /MTN ₦100/ })).toContainText('₦97.00');
  await expect(table.getByRole('row', { name: /MTN ₦100/ })).toContainText('₦98.00 (₦1.00)');
  // Cards are on sale while the seller prices them: no switch; the default level buys none.
  await expect(table.getByRole('button', { name: /^Switch off / })).toHaveCount(0);

  const form = section.getByRole('form', { name: "Change a level's price" });
  await expect(form.getByLabel('Plan', { exact: true })).toHaveCount(0);
  await form.getByLabel('Level', { exact: true }).click();
  await page.getByRole('option', { name: 'Customer' }).click();
  await form.getByLabel('Value').fill('1');
  await form.getByRole('button', { name: 'Preview' }).click();
  const preview = form.getByRole('table', { name: 'What the change would change' });
  await expect(preview.getByRole('row', { name: /MTN ₦100/ })).toContainText('not sold');
  await expect(preview.getByRole('row', { name: /MTN ₦100/ })).toContainText('₦99.00');
  await expect(page.getByLabel('Loading')).toHaveCount(0);
  await expectAccessible(page, 'console-epin-prices');
  // A discount over 50 % is refused in words; the cards would sell at the seller's price anyway.
  await form.getByLabel('Value').fill('60');
  await form.getByRole('button', { name: 'Preview' }).click();
  await expect(form.getByText(/at most 50/)).toBeVisible();
  await form.getByLabel('Value').fill('1');

  await form.getByLabel('Reason').fill('customers may buy cards');
  const since = Date.now() - 1;
  await form.getByRole('button', { name: 'Ask for approval' }).click();
  const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
  const asked = page.getByRole('status').filter({ hasText: 'waits for a second admin' });
  await expect(stepUp.or(asked).first()).toBeVisible();
  if (await stepUp.isVisible()) await typeCode(page, 'Confirmation code', await newestCode(request, EPIN_OPERATOR, 'mailbox', since));
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

/**
 * An Agent's purchase names its level where the price is shown and where the sale is proven: the review before the
 * PIN, the transaction's receipt, the shared receipt image and the public receipt check. On a 360 px phone, axe clean,
 * no word broken across lines.
 */
test('an Agent sees its level on the review, the receipt, the receipt image and the receipt check', async ({ page, request }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 360, height: 780 });
  const c = await readyCustomer(request, null, 10_000);
  const up = await request.post(ops.upgradePriceLevel, {
    data: { data: { level: 'agent', pin: TX_PIN } },
    headers: { authorization: `Bearer ${c.token}`, 'idempotency-key': randomUUID() },
  });
  expect((await up.json()).ok, await up.text()).toBe(true);
  await signInWithPin(page, c);
  const words: string[] = [];
  const check = async (screen: string) => {
    await expectAccessible(page, screen);
    // The verification link and the reference are codes, not words: the receipt breaks them anywhere on purpose
    // (TransactionDetail's link, the receipt table's overflow-wrap), a 29-character reference being wider than its cell.
    const code = (w: string) => w.includes('/receipt/') || /"vtu_[0-9A-Z]{26}"/.test(w);
    words.push(...(await brokenWords(page)).filter((w) => !code(w)).map((w) => `${screen}: ${w}`));
  };

  await page.goto('/buy?service=data');
  const phone = page.getByRole('textbox', { name: 'Phone number', exact: true });
  await expect(async () => {
    await phone.fill('08031234567');
    await expect(phone).toHaveValue('08031234567', { timeout: 1000 });
  }).toPass();
  const plan = page.getByRole('combobox', { name: 'Data plan' });
  await expect(plan.locator('option').nth(1)).toBeAttached();
  await plan.selectOption({ index: 1 });
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByTestId('confirm-lines').getByRole('row', { name: /Price level/ })).toContainText('Agent');
  await check('review-agent');
  await typePin(page);
  await expect(page.getByTestId('purchase-status')).toContainText('Successful');

  await page.getByRole('link', { name: 'View receipt' }).click();
  const receipt = page.getByRole('table', { name: 'Receipt' });
  await expect(receipt.getByRole('row', { name: /Price level/ })).toContainText('Agent');
  await expect(page.getByRole('img', { name: 'QR code of the receipt verification link' })).toBeVisible();
  await check('receipt-agent');
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download receipt' }).click()]);
  expect(pngText(fs.readFileSync((await file.path())!))).toContain('Price level: Agent');

  await page.goto((await page.getByTestId('verify-link').textContent())!);
  const status = page.getByRole('status').filter({ hasText: 'This receipt is genuine.' });
  await expect(status).toContainText('This receipt is genuine.');
  await expect(status).toContainText('Price level: Agent');
  await check('receipt-check-agent');
  expect(words, 'words broken across lines').toEqual([]);
});

/** The text a receipt image carries (its iTXt chunk: one "label: value" line per row). */
function pngText(buf: Buffer) {
  for (let o = 8; o + 8 <= buf.length;) {
    const len = buf.readUInt32BE(o);
    if (buf.toString('latin1', o + 4, o + 8) === 'iTXt') {
      const data = buf.subarray(o + 8, o + 8 + len);
      return data.subarray(data.indexOf(0) + 5).toString('utf8');
    }
    o += 12 + len;
  }
  return '';
}
