import { expect, test } from '@playwright/test';
import { readyCustomer, signInWithPin, TX_PIN, typePin } from './customer';
import { api, expectAccessible } from './support';

/**
 * Issue 43: the KYC tier's daily limit is said at the review, before any PIN pad, with what is left today and the way
 * to raise it; Settings shows the tier's limits; the Rewards screen shares the referral link to WhatsApp and through
 * the phone's share sheet. The customers are the sandbox's own: Tier 1 from its liveness check (daily limit ₦50,000,
 * wallet cap ₦300,000), no operator.
 */
const pad = (page: import('@playwright/test').Page) => page.getByRole('group', { name: 'Transaction PIN' });

test('a Tier 1 purchase above what is left today: the review says the amount left and links to KYC, with no PIN pad', async ({
  page,
  request,
}) => {
  const c = await readyCustomer(request, null, 60_000);
  // ₦20,000 of today's ₦50,000 spent before the purchase: ₦30,000 is left.
  await api(request, c.token, 'debitWalletFnBearerWallet', { amount: 20_000, note: 'rent', pin: TX_PIN });
  await signInWithPin(page, c);

  await page.goto('/buy?service=airtime');
  await page.getByRole('textbox', { name: 'Phone number', exact: true }).fill('08031234567');
  await page.getByLabel('Amount (₦)').fill('35000');
  await page.getByRole('button', { name: 'Review' }).click();
  const over = page.getByTestId('over-limit');
  await expect(over).toBeVisible();
  await expect(over).toHaveAttribute('role', 'alert');
  await expect(over).toContainText('Over your daily limit');
  await expect(over).toContainText('Your Tier 1 daily limit is ₦50,000.00, and ₦30,000.00 of it is left today.');
  await expect(over).toContainText('Tier 2 verification raises your daily limit to ₦200,000.00.');
  await expect(pad(page)).toHaveCount(0);
  const raise = over.getByRole('link', { name: 'Raise my limit' });
  await expect(raise).toHaveAttribute('href', '/kyc');
  await expectAccessible(page, 'review over the daily limit');

  // Within what is left: the review says it in one line, and the PIN pad buys.
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByLabel('Amount (₦)').fill('1000');
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByTestId('left-today')).toHaveText('₦30,000.00 left of today’s limit');
  await expect(page.getByTestId('over-limit')).toHaveCount(0);
  await expect(pad(page)).toBeFocused();
  await typePin(page);
  await expect(page.getByTestId('purchase-status')).toContainText('Successful');

  // Settings: the tier's limits, what the debit and the purchase left of today's, and the way to the next tier.
  await page.goto('/settings');
  const limits = page.getByRole('region', { name: 'Your limits' });
  await expect(limits.getByText('Tier 1', { exact: true })).toBeVisible();
  const row = (name: string) => limits.getByRole('row', { name: new RegExp(`^${name}`) }).getByRole('cell');
  await expect(row('Daily spending limit')).toHaveText('₦50,000.00');
  const naira = async (name: string) => Number((await row(name).textContent())!.replace(/[₦,]/g, ''));
  await expect(row('Spent today')).not.toHaveText('₦20,000.00');
  const [spent, left] = [await naira('Spent today'), await naira('Left today')];
  expect(spent).toBeGreaterThan(20_000);
  expect(spent).toBeLessThanOrEqual(21_000);
  expect(spent + left).toBeCloseTo(50_000, 2);
  await expect(row('Most your wallet can hold')).toHaveText('₦300,000.00');
  await expect(limits).toContainText(
    'Tier 2 verification raises your daily limit to ₦200,000.00 and what your wallet can hold to ₦500,000.00.',
  );
  await expectAccessible(page, 'settings with limits');

  // The link leads to the KYC screen.
  await limits.getByRole('link', { name: 'Raise my limits' }).click();
  await expect(page).toHaveURL(/\/kyc$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Verification' })).toBeVisible();
});

test('Rewards: "Share on WhatsApp" carries the referral link, and Share uses the phone’s share sheet', async ({ page, request }) => {
  const c = await readyCustomer(request, null, 0);
  // A browser with a share sheet: what the app hands it is kept for the test to read.
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'share', {
      configurable: true,
      value: async (data: ShareData) => void ((window as unknown as { shared: ShareData }).shared = data),
    });
  });
  await signInWithPin(page, c);
  await page.goto('/rewards');
  const code = (await page.getByTestId('referral-code').textContent())!.trim();
  const link = `${new URL(page.url()).origin}/?ref=${code}`;

  const whatsapp = page.getByRole('link', { name: 'Share on WhatsApp' });
  await expect(whatsapp).toHaveAttribute('target', '_blank');
  const href = new URL((await whatsapp.getAttribute('href'))!);
  expect(`${href.origin}${href.pathname}`).toBe('https://wa.me/');
  expect(href.searchParams.get('text')).toBe(`Join me on VTU Wallet with my code ${code}: ${link}`);

  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { shared?: ShareData }).shared?.url)).toBe(link);
  await expectAccessible(page, 'rewards');

  // In Hausa too.
  await page.evaluate(() => localStorage.setItem('vtu.language', 'ha'));
  await page.reload();
  const ha = page.getByRole('link', { name: 'Raba a WhatsApp' });
  await expect(ha).toBeVisible();
  expect(new URL((await ha.getAttribute('href'))!).searchParams.get('text')).toBe(
    `Shiga VTU Wallet tare da ni da lambata ${code}: ${link}`,
  );
});
