import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { expect, test, type Download, type Page } from '@playwright/test';
import { readyCustomer, signInWithPin, tier2, TX_PIN, typePin } from './customer';
import { api, apiSignIn, expectAccessible } from './support';
import * as ops from '../src/api/operations';

/**
 * What customers use every day, on a phone: the unread count in full, the hidden balance, the tab bar, amount
 * chips, errors under their fields, the review that names number, network, fee and total, the balance checked
 * before the PIN, "Buy again" filled in, and a form kept when the session ends in the middle of a purchase.
 */
test('a phone customer buys with chips, a checked review, buys again, and keeps the form across a session end', async ({
  page,
  request,
}) => {
  test.setTimeout(360_000);
  await page.setViewportSize({ width: 360, height: 780 });
  const c = await readyCustomer(request, 'ops-everyday@example.com', 3000);
  // More than 20 unread notifications (each operator adjustment sends one).
  for (let i = 0; i < 22; i++) await api(request, c.admin, 'adminAdjustWalletBearerAdmin', { userId: c.id, amount: 1, reason: `e2e ${i}` });
  const unread = (await api(request, c.token, 'listNotificationsBearerNotifications', { limit: '1' }, 'GET')).unread as number;
  expect(unread).toBeGreaterThanOrEqual(20);
  await signInWithPin(page, c);

  // The unread count in full, not cut (signing in adds a sign-in alert to the count read before).
  const badge = page.getByTestId('unread-badge');
  await expect(badge).toHaveText(/^\d{2}$/);
  const shown = Number(await badge.textContent());
  expect(shown).toBeGreaterThanOrEqual(unread);
  await expect(page.getByRole('link', { name: `Notifications ${shown} unread` })).toBeVisible();
  expect(await badge.evaluate((b) => b.scrollWidth <= b.clientWidth && b.getBoundingClientRect().right <= 360)).toBe(true);

  // The balance hidden, and still hidden after a reload.
  await expect(page.getByTestId('balance')).toHaveText('₦3,022.00');
  await page.getByRole('button', { name: 'Hide balance' }).click();
  await expect(page.getByTestId('balance')).toHaveText('₦ ••••••');
  await page.reload();
  await expect(page.getByTestId('balance')).toHaveText('₦ ••••••');
  await expect(page.getByRole('button', { name: 'Hide balance' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Hide balance' }).click();
  await expect(page.getByTestId('balance')).toHaveText('₦3,022.00');
  await expectAccessible(page, 'home-phone');

  // The tab bar takes the customer to Buy.
  const tabs = page.getByRole('navigation', { name: 'Shortcuts' });
  await tabs.getByRole('link', { name: 'Buy' }).click();
  await expect(page.getByRole('heading', { name: 'Buy', level: 1 })).toBeVisible();
  await expect(tabs.getByRole('link', { name: 'Buy' })).toHaveAttribute('aria-current', 'page');

  // Errors under their fields, in the app's words.
  const phone = page.getByRole('textbox', { name: 'Phone number', exact: true });
  const amount = page.getByLabel('Amount (₦)');
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(phone).toHaveAccessibleDescription(/Enter an 11-digit Nigerian number/);
  await expect(amount).toHaveAccessibleDescription('Enter at least ₦50.00.');
  await phone.fill('0803123');
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(phone).toHaveAccessibleDescription(/Enter an 11-digit Nigerian number/);

  // A chip fills the amount; the review names the number, network, fee and total; the balance is checked before the PIN.
  await phone.fill('08031234567');
  await page.getByRole('button', { name: '₦5,000' }).click();
  await expect(amount).toHaveValue('₦5,000');
  await page.getByRole('button', { name: 'Review' }).click();
  const lines = page.getByTestId('confirm-lines');
  await expect(lines).toContainText('08031234567');
  await expect(lines).toContainText('MTN');
  await expect(lines.getByRole('row', { name: /Fee/ })).toContainText('₦');
  await expect(lines.getByRole('row', { name: /Total/ })).toContainText('₦5,');
  await expect(page.getByRole('alert')).toContainText('Your balance is too low');
  await expect(page.getByRole('main').getByRole('link', { name: 'Fund wallet' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Digit 1' })).toHaveCount(0);
  await expectAccessible(page, 'buy-not-enough');

  // ₦500, the number saved as "Mum": the PIN pad; a wrong PIN is refused with the tries left, the right one buys.
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: '₦500', exact: true }).click();
  await page.getByRole('checkbox', { name: 'Save this number for next time' }).check();
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByLabel('Name for this number')).toHaveAccessibleDescription('Enter a name for this number.');
  await page.getByLabel('Name for this number').fill('Mum');
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(lines.getByRole('row', { name: /Total/ })).toContainText('₦5');
  await typePin(page, '0000');
  await expect(page.getByRole('alert')).toContainText(/That PIN is not right\. Tries left: \d\./);
  await typePin(page, TX_PIN);
  await expect(page.getByTestId('purchase-status')).toContainText('Successful');

  // Buy again: the same number and amount, filled in.
  await page.getByRole('button', { name: 'Buy again' }).click();
  await expect(phone).toHaveValue('08031234567');
  await expect(amount).toHaveValue('₦500');
  await expect(page.getByRole('group', { name: 'Saved numbers' }).getByRole('button', { name: 'Mum: 08031234567' })).toBeVisible();

  // The session ends in the middle of the next purchase (a sign-in on another device takes it over).
  await page.getByRole('button', { name: '₦200' }).click();
  const other = (await (await request.post(ops.startPinLogin, { data: { data: { identifier: c.email, pin: '864209' } } })).json()).session
    .accessToken as string;
  await api(request, other, 'claimSessionBearerAuth', { deviceId: randomUUID() });
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByRole('heading', { name: 'You signed in on another device' })).toBeVisible();
  await page.getByRole('button', { name: /^Sign in/ }).click();
  await page.getByRole('button', { name: 'Sign in with login PIN' }).click();
  await page.getByLabel('E-mail or username').fill(c.email);
  await page.getByLabel('Login PIN').fill('864209');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // Back on the purchase, as it was; the kept copy is gone once the form is left.
  await expect(page.getByRole('heading', { name: 'Buy', level: 1 })).toBeVisible();
  await expect(phone).toHaveValue('08031234567');
  await expect(amount).toHaveValue('₦200');
  await tabs.getByRole('link', { name: 'Home' }).click();
  await expect(page.getByTestId('balance')).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('vtu.buyDraft'))).toBeNull();

  // Activity lines are worded in the reader's language from their kind and parameters.
  await page.evaluate(() => localStorage.setItem('vtu.language', 'ha'));
  await page.reload();
  await expect(page.getByText("Gyara daga ma'aikaci: e2e 21")).toBeVisible();
});

/**
 * Receipts people share: an electricity receipt with token, units and fee and a transfer receipt, each a PNG
 * (downloaded where the browser cannot share files) that decodes and carries its lines as text; data plans grouped
 * by validity; the Cable TV plan field named for TV.
 */
test('receipts are images with token, units and fee; data plans by validity; the TV plan field', async ({ page, request }) => {
  test.setTimeout(300_000);
  const c = await readyCustomer(request, 'ops-receipts@example.com');
  const myPhone = await tier2(request, c, 'Kemi Ade');
  const friend = `bola${randomUUID().slice(0, 6)}`;
  const friendToken = await apiSignIn(request, `${friend}@example.com`);
  await api(request, friendToken, 'updateProfileBearerSettings', { username: friend, fullName: 'Bola Ade' });
  await signInWithPin(page, c);

  // Electricity: the result shows token and units; the receipt image has them and the fee.
  await page.goto('/buy?service=electricity');
  await page.getByLabel('Electricity company').selectOption({ index: 1 });
  await page.getByRole('textbox', { name: 'Meter number' }).fill('45012345678');
  await page.getByLabel('Amount (₦)').fill('2000');
  await page.getByRole('textbox', { name: 'Phone number' }).fill('08031234567');
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByTestId('confirm-lines').getByRole('row', { name: /Fee/ })).toBeVisible();
  await typePin(page);
  await expect(page.getByTestId('purchase-status')).toContainText('Successful');
  const token = (await page.getByTestId('token').textContent())!.trim();
  await expect(page.getByTestId('units')).toContainText('Units:');
  const units = (await page.getByTestId('units').textContent())!.replace('Units:', '').trim();
  const receipt = await readReceipt(page, await download(page));
  expect(receipt.text).toContain(token);
  expect(receipt.text).toContain(`Units: ${units}`);
  expect(receipt.text).toMatch(/Fee: ₦\d/);
  expect(receipt.text).toMatch(/Total paid: ₦2,\d{3}\.\d{2}/);
  expect(receipt.text).toContain('/receipt/');

  // The same receipt from the transaction screen.
  await page.getByRole('link', { name: 'View receipt' }).click();
  await expect(page.getByRole('img', { name: 'QR code of the receipt verification link' })).toBeVisible();
  const again = await readReceipt(page, await download(page));
  expect(again.text).toContain(token);

  // A transfer receipt.
  await page.goto('/transfer');
  await page.getByLabel('Recipient username').fill(friend);
  await page.getByRole('button', { name: 'Find recipient' }).click();
  await page.getByLabel('Amount (₦)').fill('500');
  await typePin(page);
  await expect(page.getByText(new RegExp(`Sent ₦500.00 to @${friend}`))).toBeVisible();
  const sent = await readReceipt(page, await download(page));
  expect(sent.text).toContain(`@${friend}`);
  expect(sent.text).toContain('500.00');

  // "My number" fills the customer's own verified phone.
  await page.goto('/buy?service=airtime');
  await page.getByRole('button', { name: `My number: ${myPhone}` }).click();
  await expect(page.getByRole('textbox', { name: 'Phone number', exact: true })).toHaveValue(myPhone);

  // Data plans grouped by validity.
  await page.goto('/buy?service=data');
  // The kind's form draws a task after the screen and then takes the number kept from the airtime form ("My
  // number"): a fill that lands between the two is appended to, so fill until the field holds just this number.
  const phone = page.getByRole('textbox', { name: 'Phone number', exact: true });
  await expect(async () => {
    await phone.fill('08031234567');
    await expect(phone).toHaveValue('08031234567', { timeout: 1000 });
  }).toPass();
  const plan = page.getByRole('combobox', { name: 'Data plan' });
  await expect(plan.locator('optgroup[label="Monthly"] option').first()).toBeAttached();
  expect(await plan.locator('optgroup').evaluateAll((gs) => gs.map((g) => g.getAttribute('label')))).toEqual(
    expect.arrayContaining(['Monthly']),
  );

  // Cable TV asks for a TV plan.
  await page.goto('/buy?service=cable');
  await expect(page.getByRole('combobox', { name: 'TV plan' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Data plan' })).toHaveCount(0);
});

async function download(page: Page): Promise<Download> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download receipt' }).click()]);
  expect(file.suggestedFilename()).toMatch(/^receipt-.+\.png$/);
  return file;
}

/** The PNG's size from its header, decoded by the browser, and the text it carries (its iTXt chunk). */
async function readReceipt(page: Page, file: Download) {
  const buf = fs.readFileSync((await file.path())!);
  expect([...buf.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  const width = buf.readUInt32BE(16);
  const height = buf.readUInt32BE(20);
  let text = '';
  for (let o = 8; o + 8 <= buf.length;) {
    const len = buf.readUInt32BE(o);
    if (buf.toString('latin1', o + 4, o + 8) === 'iTXt') {
      const data = buf.subarray(o + 8, o + 8 + len);
      text = data.subarray(data.indexOf(0) + 5).toString('utf8');
    }
    o += 12 + len;
  }
  const decoded = await page.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    return [bitmap.width, bitmap.height];
  }, buf.toString('base64'));
  expect(decoded).toEqual([width, height]);
  expect(width).toBeGreaterThanOrEqual(600);
  expect(height).toBeGreaterThan(400);
  return { width, height, text };
}
