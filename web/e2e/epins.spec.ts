import { expect, test, type Download } from '@playwright/test';
import { readyCustomer, signInWithPin, typePin, TX_PIN } from './customer';
import { api, expectAccessible } from './support';

/**
 * Issue 45, recharge cards: an Agent buys a small batch of e-PINs with the PIN, downloads the card sheet (PDF) and the
 * CSV, and marks one card sold.
 */
async function bytesOf(d: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of (await d.createReadStream()) as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

test('an agent buys a batch of recharge cards, downloads the PDF and CSV, and marks a card sold', async ({ page, request }) => {
  const c = await readyCustomer(request, null, 5_000);
  // Recharge cards are sold to Agents and above: the upgrade fee (₦2,000) from the wallet.
  await api(request, c.token, 'upgradePriceLevelBearerVTU', { level: 'agent', pin: TX_PIN });
  await signInWithPin(page, c);
  await page.goto('/recharge-cards');
  const section = page.getByRole('region', { name: 'Recharge cards' });
  await expect(section.getByText('No batches yet.')).toBeVisible();

  const form = section.getByRole('form', { name: 'Buy a batch' });
  await form.getByLabel('Network').selectOption('mtn');
  await form.getByLabel('Card value').selectOption('100');
  await form.getByLabel('Number of cards (up to 1,000)').fill('3');
  await form.getByLabel('Business name on the cards (optional)').fill('Ade Ventures');
  await expectAccessible(page, 'recharge-cards');
  await form.getByRole('button', { name: 'Continue' }).click();
  await expect(section.getByText('Enter your PIN to buy 3 MTN cards of ₦100')).toBeVisible();
  await typePin(page);
  await expect(section.getByRole('status')).toContainText('Ready: 3 of 3 cards of ₦100');

  const batch = section.getByRole('article', { name: /^MTN ₦100.* × 3$/ });
  await expect(batch).toBeVisible();
  const [pdf] = await Promise.all([page.waitForEvent('download'), batch.getByRole('button', { name: 'Download PDF' }).click()]);
  expect(pdf.suggestedFilename()).toMatch(/^recharge-cards-mtn-100-epb_.*\.pdf$/);
  expect((await bytesOf(pdf)).subarray(0, 5).toString()).toBe('%PDF-');
  const [csv] = await Promise.all([page.waitForEvent('download'), batch.getByRole('button', { name: 'Download CSV' }).click()]);
  const lines = (await bytesOf(csv)).toString().trim().split('\r\n');
  expect(lines[0]).toBe('serial,pin,network,denomination,load_code,business_name,sold_at');
  expect(lines).toHaveLength(4);
  expect(lines[1]).toContain(',mtn,100.00,*555*PIN#,Ade Ventures,');

  await batch.getByRole('button', { name: 'Show cards' }).click();
  const serial = lines[1].split(',')[0];
  const table = batch.getByRole('table', { name: /^Cards of batch / });
  await expect(table.getByRole('row')).toHaveCount(4);
  await table.getByRole('checkbox', { name: `Select card ${serial}` }).check();
  await batch.getByRole('button', { name: 'Mark selected sold (1)' }).click();
  await expect(batch.getByText('3 of 3 cards of ₦100.00 · 1 sold').or(batch.getByText('3 of 3 cards of ₦100 · 1 sold'))).toBeVisible();
  await expect(table.getByRole('checkbox', { name: `Select card ${serial}` })).toHaveCount(0);
  await expectAccessible(page, 'recharge-cards-batch');
});
