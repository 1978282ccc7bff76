import { expect, test, type Page } from '@playwright/test';
import { readyCustomer, signInWithPin } from './customer';
import { expectAccessible } from './support';

/**
 * Back from the processor's checkout after a failed, an abandoned and an unanswered payment: the "Confirming your
 * payment…" screen ends in each case (a failed or abandoned checkout sends no webhook: the screen asks the service
 * to verify with the processor, and stops after its time limit), with a way to try again or check later.
 */
test('a failed, an abandoned and an unanswered top-up each come to an end', async ({ page, request }) => {
  const c = await readyCustomer(request, 'ops-second@example.com', 0);
  await signInWithPin(page, c);

  const checkout = async (amount: string) => {
    await page.goto('/fund');
    await page.getByLabel('Amount (₦)').fill(amount);
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await expect(page.locator('#amount')).toBeVisible();
    return (await page.locator('#reference').textContent())!.trim();
  };

  await checkout('1000');
  await page.getByRole('button', { name: 'Fail' }).click();
  await expect(page.getByText('The payment did not go through. No money was taken from your wallet.')).toBeVisible();
  await expect(page.getByText('Confirming your payment…')).toBeHidden();
  await expectAccessible(page, 'fund-failed');
  await tryAgain(page);

  await checkout('1200');
  await page.getByRole('button', { name: 'Abandon' }).click();
  await expect(page.getByText('The payment was not completed.')).toBeVisible();
  await expect(page.getByText('Confirming your payment…')).toBeHidden();
  await tryAgain(page);

  // Nobody answers at the checkout: after its time limit the screen says the payment is still pending.
  const reference = await checkout('1500');
  await page.goto(`/fund/return?reference=${encodeURIComponent(reference)}`);
  await expect(page.getByText('Confirming your payment…')).toBeVisible();
  await expect(page.getByText('Your payment is still pending')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('Confirming your payment…')).toBeHidden();
  await expectAccessible(page, 'fund-pending');
  // The customer pays later and the webhook is lost: "Check again" asks the service, which verifies and credits.
  await request.post('/sandbox/processor/pay', { data: { reference, outcome: 'success', webhook: false } });
  await page.getByRole('button', { name: 'Check again' }).click();
  await expect(page.getByText('Your wallet was credited with ₦1,500.00.')).toBeVisible();
});

async function tryAgain(page: Page) {
  await page.getByRole('link', { name: 'Try another payment' }).click();
  await expect(page.getByLabel('Amount (₦)')).toBeVisible();
}
