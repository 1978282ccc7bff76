import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { readyCustomer, signInWithPin, TX_PIN } from './customer';
import { adminToken, api } from './support';

/**
 * The README's screenshots (docs/screenshots), on demand only: `npm run screenshots` (README_SCREENSHOTS=<dir>);
 * skipped otherwise, so CI never writes them. The app's Home and Buy at 360 px, the console's dashboard and a waiting
 * approval at 1280 and 390 px, each the size of one screen (not the whole page), with a customer who has bought something.
 */
const DIR = process.env.README_SCREENSHOTS;
const OPERATOR = 'ops-console-axe@example.com';
/** Approves the customer's Tier 1 through the API (a second operator: the first signs in in the browser). */
const KYC_OPERATOR = 'ops-console-axe-maker@example.com';
test.skip(!DIR, 'on demand: npm run screenshots');

async function shot(page: Page, name: string, width: number, height: number) {
  await page.setViewportSize({ width, height });
  await expect(page.getByLabel('Loading')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  // Fonts, images and Mantine's transitions settle before the picture.
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  fs.mkdirSync(path.resolve(DIR!), { recursive: true });
  await page.screenshot({ path: path.join(path.resolve(DIR!), `${name}.png`) });
}

test('the README screenshots', async ({ page, request }) => {
  const customer = await readyCustomer(request, KYC_OPERATOR, 25_000);
  await api(request, customer.token, 'buyAirtimeBearerVTU', { network: 'mtn', phone: '08031234567', amount: 1000, pin: TX_PIN });
  await api(request, customer.token, 'buyAirtimeBearerVTU', { network: 'airtel', phone: '08021234567', amount: 500, pin: TX_PIN });

  await page.setViewportSize({ width: 360, height: 740 });
  await signInWithPin(page, customer);
  await shot(page, 'app-home-360', 360, 740);
  await page.goto('/buy?service=airtime');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await shot(page, 'app-buy-360', 360, 740);

  await page.context().clearCookies();
  await page.setViewportSize({ width: 1280, height: 820 });
  await consoleSignIn(page, request, OPERATOR);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await shot(page, 'console-dashboard-1280', 1280, 820);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await shot(page, 'console-dashboard-390', 390, 844);

  // docs/console.md's Approvals: a wallet adjustment another operator asked for, waiting for this one.
  await api(request, await adminToken(request, KYC_OPERATOR), 'adminAdjustWalletBearerAdmin', {
    userId: customer.id,
    amount: 2500,
    reason: 'goodwill credit for a delayed data bundle, ticket 1043',
  });
  await page.goto('/console/approvals?status=pending');
  await expect(page.getByRole('heading', { name: 'Approvals', level: 1 })).toBeVisible();
  await shot(page, 'console-approvals-1280', 1280, 820);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Approvals', level: 1 })).toBeVisible();
  await shot(page, 'console-approvals-390', 390, 844);
});
