import { expect, test, type Locator } from '@playwright/test';
import { readyCustomer, signInWithPin } from './customer';

/**
 * Forms say what is wrong under the field (issue 29, items 5 and 7): the button stays enabled, a submit or leaving the
 * field puts the field's sentence under it (the input is aria-invalid and described by it), and a field the service
 * refuses gets its message under that field too.
 */
const OPERATOR = 'ops-bills@example.com';

/** The message a field is described by, once it is invalid. */
async function messageOf(field: Locator) {
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  const ids = (await field.getAttribute('aria-describedby'))?.split(/\s+/).filter(Boolean) ?? [];
  expect(ids.length).toBeGreaterThan(0);
  const texts = await Promise.all(ids.map((id) => field.page().locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}

test('bill forms: a too-short number says so under the field, the button stays enabled', async ({ page, request }) => {
  const c = await readyCustomer(request, OPERATOR);
  await signInWithPin(page, c);

  // Airtime: a submit with a short number names the rule under the number.
  await page.goto('/buy?service=airtime');
  const phone = page.getByRole('textbox', { name: 'Phone number' });
  await phone.fill('0803123');
  await page.getByLabel('Amount (₦)').fill('100');
  const review = page.getByRole('button', { name: 'Review' });
  await expect(review).toBeEnabled();
  await review.click();
  expect(await messageOf(phone)).toContain('Enter an 11-digit Nigerian number, like 08031234567.');
  // Fixing the number takes the message away; the purchase goes on to its review.
  await phone.fill('08031234567');
  await expect(phone).not.toHaveAttribute('aria-invalid', 'true');
  await review.click();
  await expect(page.getByRole('region', { name: 'Confirm purchase' })).toBeVisible();

  // Electricity: leaving the meter field with too few digits says so at once; a submit names the empty fields too.
  await page.goto('/buy?service=electricity');
  const meter = page.getByRole('textbox', { name: 'Meter number' });
  await meter.fill('12345');
  await meter.blur();
  expect(await messageOf(meter)).toContain('Enter the 11 to 13 digit meter number.');
  await page.getByRole('button', { name: 'Review' }).click();
  expect(await messageOf(page.getByRole('combobox', { name: 'Electricity company' }))).toContain('Choose your electricity company.');
  expect(await messageOf(page.getByRole('textbox', { name: 'Phone number' }))).toContain('Enter an 11-digit Nigerian number');

  // In another language the sentence is that language's.
  await page.evaluate(() => localStorage.setItem('vtu.language', 'pcm'));
  await page.goto('/buy?service=betting');
  const customerId = page.getByRole('textbox', { name: /ID/ });
  await customerId.fill('a');
  await customerId.blur();
  expect(await messageOf(customerId)).toContain('Put your betting customer ID');
  await page.evaluate(() => localStorage.removeItem('vtu.language'));
});
