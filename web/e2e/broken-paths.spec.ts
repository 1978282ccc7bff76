import { expect, test } from '@playwright/test';
import { readyCustomer, signInWithPin, typePin } from './customer';
import { expectAccessible } from './support';

/**
 * Issue 43's broken paths, against the real sandbox server: after a reload on a buy form, a typed address opens its
 * own screen (the form's kept copy waits, it does not take the customer back); and the app opened at another
 * address than PUBLIC_URL says in the customer's words why a card payment cannot start there, never the service's
 * message for developers (which goes to the browser's log); a purchase that never settles offers help (a report
 * with its reference) after a few minutes, and never "Buy again" while it is processing.
 */
test('after a reload on a buy form, /settings, /rewards and /orders open their own screens', async ({ page, request }) => {
  const c = await readyCustomer(request, null);
  await signInWithPin(page, c);
  await page.goto('/buy?service=airtime');
  const phone = page.getByRole('textbox', { name: 'Phone number', exact: true });
  await phone.fill('08031234567');
  await page.reload();
  // The reloaded form opens as it was.
  await expect(phone).toHaveValue('08031234567');
  for (const [path, heading] of [
    ['/settings', 'Settings'],
    ['/rewards', 'Rewards and savings'],
    ['/orders', 'Orders and help'],
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await expect(page).toHaveURL(new RegExp(`${path}$`));
  }
});

test('funding from another address than PUBLIC_URL says what to do, without the developer message', async ({ page, request }) => {
  const c = await readyCustomer(request, null, 0);
  // The same server under another name: PUBLIC_URL is http://localhost:<port> (playwright.config.ts).
  const other = `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`;
  const logged: string[] = [];
  page.on('console', (m) => logged.push(m.text()));
  await page.goto(`${other}/`);
  await page.getByRole('button', { name: 'Sign in with login PIN' }).click();
  await page.getByLabel('E-mail or username').fill(c.email);
  await page.getByLabel('Login PIN').fill('864209');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('balance')).toBeVisible();
  await page.goto(`${other}/fund`);
  await page.getByLabel('Amount (₦)').fill('500');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Card payment cannot start from this web address. Open the app at its usual address to pay by card, or send money to your bank transfer account below.',
  );
  await expect(page.getByText(/TOPUP_CALLBACK_ORIGINS|Callback URL/)).toHaveCount(0);
  expect(logged.some((l) => l.includes('TOPUP_CALLBACK_ORIGINS'))).toBe(true);
  await expectAccessible(page, 'fund from another address');
});

test('a purchase that never settles: no "Buy again" beside it, and "Get help" after 3 minutes opens a report with its reference', async ({
  page,
  request,
}) => {
  const c = await readyCustomer(request, null, 2_000);
  // The page's clock: three minutes pass at once (fastForward), no waiting.
  await page.clock.install();
  await signInWithPin(page, c);
  await page.goto('/buy?service=airtime');
  // A recipient ending 4040: the sandbox provider never settles it.
  await page.getByRole('textbox', { name: 'Phone number', exact: true }).fill('08031234040');
  await page.getByLabel('Amount (₦)').fill('100');
  await page.getByRole('button', { name: 'Review' }).click();
  await typePin(page);
  await expect(page.getByTestId('purchase-status')).toContainText('Processing');
  await expect(page.getByRole('button', { name: 'Buy again' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Get help' })).toHaveCount(0);
  const reference = ((await page.getByText(/^Reference: /).textContent()) ?? '').replace('Reference: ', '');

  await page.clock.fastForward('03:05');
  await expect(page.getByText('This is taking longer than usual')).toBeVisible();
  await expectAccessible(page, 'a purchase still processing');
  await page.getByRole('link', { name: 'Get help' }).click();
  await expect(page.getByRole('heading', { name: 'Orders and help', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Reference')).toHaveValue(reference);
  await page.getByLabel('Tell us what happened (at least 10 characters)').fill('The airtime has not arrived.');
  await page.getByRole('button', { name: 'Send report' }).click();
  await expect(page.getByText(new RegExp(`${reference} · Not delivered`))).toBeVisible();
});
