import { expect, test } from '@playwright/test';
import { readyCustomer, signInWithPin, typePin } from './customer';

/**
 * Saved numbers for the bill kinds (issue 29): after a delivered electricity purchase the customer saves the meter
 * under a name; the next purchase starts from it with one tap (company, meter type and meter number filled in).
 */
test('a meter saved after a purchase is picked on the next one', async ({ page, request }) => {
  const c = await readyCustomer(request, 'ops-saved@example.com');
  await signInWithPin(page, c);

  const buyElectricity = async () => {
    await page.getByLabel('Amount (₦)').fill('1500');
    await page.getByRole('textbox', { name: 'Phone number' }).fill('08031234567');
    await page.getByRole('button', { name: 'Review' }).click();
    await expect(page.getByText(/Customer: /)).toBeVisible();
    await typePin(page);
    await expect(page.getByTestId('purchase-status')).toContainText('Successful');
  };

  await page.goto('/buy?service=electricity');
  // Nothing saved yet: no saved meters to pick from.
  await expect(page.getByRole('group', { name: 'Saved meters' })).toHaveCount(0);
  const company = page.getByLabel('Electricity company');
  await company.selectOption({ index: 2 });
  const companyId = await company.inputValue();
  await page.getByLabel('Meter type').selectOption('postpaid');
  await page.getByRole('textbox', { name: 'Meter number' }).fill('45012345678');
  await buyElectricity();

  // Save it under a name: an empty name is refused under the field, then it is saved.
  const name = page.getByRole('textbox', { name: 'Save this meter for next time' });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Enter a name to save it under.')).toBeVisible();
  await name.fill('Shop');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved as “Shop”.')).toBeVisible();

  // The next purchase: a fresh form, the saved meter one tap away.
  await page.goto('/buy?service=electricity');
  await expect(page.getByRole('textbox', { name: 'Meter number' })).toHaveValue('');
  await page.getByRole('group', { name: 'Saved meters' }).getByRole('button', { name: 'Shop: 45012345678' }).click();
  await expect(page.getByRole('textbox', { name: 'Meter number' })).toHaveValue('45012345678');
  await expect(company).toHaveValue(companyId);
  await expect(page.getByLabel('Meter type')).toHaveValue('postpaid');
  await buyElectricity();
  // Already saved: the result says under which name instead of offering to save it again.
  await expect(page.getByText('Saved as “Shop”.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Save this meter for next time' })).toHaveCount(0);
});
