import { expect, test } from '@playwright/test';
import { readyCustomer, signInWithPin, typePin } from './customer';
import { expectAccessible } from './support';

/**
 * Issue 32: a flight searched and booked in the app (from, to, date; the offers with their fare rules; the traveller
 * and a contact; the review and the PIN pad), its PNR and e-ticket on the result screen, then the booking cancelled
 * by its fare's rules with the refund shown. Lagos to Port Harcourt for one adult is priced within Tier 1's daily
 * limit at the sandbox.
 */
test('a customer books a flight, sees its PNR and e-ticket, and cancels it for the refund its fare allows', async ({ page, request }) => {
  test.setTimeout(300_000);
  const c = await readyCustomer(request, 'ops-flights@example.com', 60_000);
  await signInWithPin(page, c);

  await page.goto('/buy?service=flights');
  await expect(page.getByRole('navigation', { name: 'Services' }).getByRole('link', { name: 'Flights' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await page.getByRole('combobox', { name: /^From/ }).selectOption('LOS');
  await page.getByRole('combobox', { name: /^To/ }).selectOption('PHC');
  await page.getByLabel('Departure').fill(new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10));
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const offers = page.getByTestId('flight-offer');
  await expect(offers).toHaveCount(3);
  await expect(offers.first()).toContainText('Refundable');
  await expect(offers.last()).toContainText('Not refundable');
  await expectAccessible(page, 'flight offers');
  await offers.first().getByRole('button', { name: 'Choose this flight' }).click();

  await page.getByLabel('First name (as on the passport or ID)').fill('Ada');
  await page.getByLabel('Last name').fill('Obi');
  await page.getByLabel('Date of birth').fill('1990-01-01');
  await page.getByLabel('E-mail for the e-tickets').fill('ada@example.com');
  await page.getByLabel('Contact phone number').fill('08031234567');
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByTestId('confirm-lines')).toContainText('Ada Obi');
  await typePin(page);

  await expect(page.getByTestId('purchase-status')).toContainText('Successful', { ignoreCase: true });
  await expect(page.getByTestId('pnr')).toHaveText(/^[A-Z2-9]{6}$/);
  await expect(page.getByTestId('flight-booking')).toContainText(/Ada Obi\s*\d{13}/);
  await expectAccessible(page, 'flight result');

  await page.getByRole('button', { name: 'Cancel this booking' }).click();
  await typePin(page);
  await expect(page.getByTestId('flight-cancelled')).toContainText('refunded to your wallet');
});
