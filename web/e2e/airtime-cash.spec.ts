import { expect, test, type APIRequestContext } from '@playwright/test';
import { readyCustomer, signInWithPin, typePin } from './customer';

/** The SMS code sent to `to` after `after` (the sandbox keeps the texts it would have sent). */
async function smsCode(request: APIRequestContext, to: string, after: number): Promise<string> {
  for (let i = 0; i < 150; i++) {
    const box = await (await request.get(`/sandbox/sms?to=${encodeURIComponent(to)}`)).json();
    const code = (box.items as { createdAt: string; text: string }[])
      .filter((m) => Date.parse(m.createdAt) > after)
      .map((m) => /\b(\d{6})\b/.exec(m.text)?.[1])
      .find(Boolean);
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code for ${to}`);
}

/**
 * Airtime to cash (issue 32): the customer proves the sending number by SMS code, asks to convert ₦1,000 of MTN airtime,
 * sees where and how to send it (the receiving number, the share-and-sell code, the reference), and after "I have sent
 * it" the provider's confirmation credits the wallet at MTN's rate (80%).
 */
test('ask for airtime-to-cash and see the instructions', async ({ page, request }) => {
  const c = await readyCustomer(request, 'ops-a2c@example.com', 0);
  await signInWithPin(page, c);
  await page.goto('/buy?service=airtimeCash');

  const phone = '08031230001';
  await page.getByLabel('Send from').selectOption({ label: 'Another number…' });
  await page.getByRole('textbox', { name: 'Phone number' }).fill(phone);
  const since = Date.now();
  await page.getByRole('button', { name: 'Text me a code' }).click();
  await page.getByRole('textbox', { name: 'Code from the SMS' }).fill(await smsCode(request, phone, since - 1000));
  await page.getByRole('button', { name: 'Verify number' }).click();
  await expect(page.getByLabel('Send from')).toHaveValue(phone);
  // The network follows the number's prefix; the credit at the network's rate is shown before the PIN.
  await expect(page.getByLabel('Network')).toHaveValue('mtn');
  await page.getByLabel('Airtime to send (₦)').fill('1000');
  await expect(page.getByTestId('a2c-credit')).toContainText('₦800.00');
  await page.getByRole('button', { name: 'Review' }).click();
  await typePin(page);

  const instructions = page.getByTestId('a2c-instructions');
  await expect(instructions).toBeVisible();
  await expect(page.getByTestId('a2c-status')).toHaveText('Waiting for airtime');
  await expect(page.getByTestId('a2c-receiving')).toHaveText('08030000600');
  await expect(page.getByTestId('a2c-ussd')).toHaveText('*600*08030000600*1000*PIN#');
  await expect(page.getByTestId('a2c-reference')).toHaveText(/^a2c_/);
  await expect(instructions).toContainText('Send ₦1,000.00 MTN airtime from 08031230001');

  await page.getByRole('button', { name: 'I have sent it' }).click();
  await expect(page.getByTestId('a2c-status')).toHaveText('Credited');
  await expect(page.getByTestId('a2c-credited')).toContainText('₦800.00 was added to your wallet.');
});
