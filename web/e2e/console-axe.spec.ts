import { expect, test, type Page } from '@playwright/test';
import { SCREENS } from '../src/console/screens';
import { screens as screenTexts } from '../src/locales/console/screens';
import { consoleSignIn } from './console-support';
import { readyCustomer, TX_PIN } from './customer';
import { adminToken, api, expectAccessible } from './support';
import * as ops from '../src/api/operations';

/**
 * Issue 44: axe on every console screen, on a desktop (1280 px) and on a phone (390 px). The screens are the console's
 * own screen table (console/screens.tsx), so a screen added there is checked here without a change; the customer's
 * page, the sign-in screen and the phone's menu too. A customer with a purchase and a wallet adjustment waiting for a
 * second operator give the tables and the cards rows (the adjustment is rejected at the end, so it waits for no one).
 */
const ADMIN = 'ops-console-axe@example.com';
const MAKER = 'ops-console-axe-maker@example.com';
const WIDTHS = [
  { width: 1280, height: 860 },
  { width: 390, height: 844 },
];

/** The screen drawn: its heading, and nothing still loading. */
async function drawn(page: Page, title: string) {
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByLabel('Loading')).toHaveCount(0);
}

test('every console screen is accessible on a desktop and on a 390-px phone', async ({ page, request }) => {
  // Two loads and two axe runs for each of twenty-odd screens.
  test.setTimeout(600_000);
  const customer = await readyCustomer(request, MAKER);
  await api(request, customer.token, 'buyAirtimeBearerVTU', { network: 'mtn', phone: '08031234567', amount: 500, pin: TX_PIN });
  const waiting = await api(request, await adminToken(request, MAKER), 'adminAdjustWalletBearerAdmin', {
    userId: customer.id,
    amount: 4321,
    reason: 'goodwill credit, e2e axe',
  });
  expect(waiting.status).toBe('pending');

  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto('/console');
    await expect(page.getByRole('heading', { name: 'Operator console', level: 1 })).toBeVisible();
    await expectAccessible(page, `console sign-in ${size.width}`);
  }
  // The browser session's token rejects the adjustment at the end (a second e-mailed code so soon would wait for the
  // resend cooldown).
  const signedIn = page.waitForResponse((r) => r.url().includes(ops.verifyLoginOtp) && r.ok());
  await consoleSignIn(page, request, ADMIN);
  const token = (await (await signedIn).json()).session.accessToken as string;
  await drawn(page, 'Dashboard');

  const screens = [
    ...Object.entries(SCREENS).map(([path, s]) => ({ path: path.slice('/console/'.length), title: screenTexts.titles[s.title] })),
    { path: `customers/${customer.id}`, title: customer.email },
    // The floats first, the focus on their heading (the dashboard's floats tile).
    { path: 'catalogue?section=floats', title: screenTexts.titles.catalogue },
  ];
  expect(screens.length).toBeGreaterThanOrEqual(20);
  for (const { path, title } of screens) {
    // One load per screen, then the phone's width: the layout follows the width as a turned tablet's would.
    await page.setViewportSize(WIDTHS[0]);
    await page.goto(`/console/${path}`);
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      await drawn(page, title);
      await expectAccessible(page, `console /${path} at ${size.width} px`);
    }
  }

  // The phone's menu, open.
  await page.getByRole('button', { name: 'Console menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Console' })).toBeVisible();
  await expectAccessible(page, 'console menu at 390 px');

  // The adjustment waits for no one after this run.
  const rejected = await api(request, token, 'adminRejectRequestBearerAdmin', {
    id: waiting.approval.id,
    reason: 'e2e axe: not needed',
  });
  expect(rejected.ok).toBe(true);
});
