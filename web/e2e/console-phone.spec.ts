import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { readyCustomer, TX_PIN } from './customer';
import { adminToken, api, apiSignIn, expectAccessible, newestCode, typeCode } from './support';
import * as ops from '../src/api/operations';

/**
 * Issue 44: the owner's phone, 390 px wide. A wallet adjustment waits for a second operator: the dashboard's tile
 * counts it, the menu's Approvals link carries it as a badge, and the owner approves it there, its card saying who
 * asked and for which customer, Approve and Reject in reach (no sideways scrolling), through step-up. A refund of a
 * purchase names the purchase by its reference (a link). The dashboard and a customer's page are cards, nothing
 * scrolls sideways and their links and actions are in reach.
 */
const CHECKER = 'ops-console-phone@example.com';
const MAKER = 'ops-console-phone-maker@example.com';
const PHONE = { width: 390, height: 844 };

/**
 * A console of a new admin, invited by MAKER and signed in on the page at `path` (each test its own address: one
 * e-mailed code a minute per address); the session's token for the API.
 */
async function newAdmin(page: Page, request: APIRequestContext, path: string) {
  const email = `phone-admin-${randomUUID().slice(0, 8)}@example.com`;
  await api(request, await adminToken(request, MAKER), 'adminGrantRoleBearerAdmin', { email, role: 'admin' });
  const signedIn = page.waitForResponse((r) => r.url().includes(ops.verifyLoginOtp) && r.ok());
  await consoleSignIn(page, request, email, path);
  return (await (await signedIn).json()).session.accessToken as string;
}

/** Nothing on the page scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

/** Scrolled to, the element is on the screen (a sub-pixel scroll aside), whole within the phone's width. */
async function expectInReach(target: Locator) {
  await target.scrollIntoViewIfNeeded();
  await expect(target).toBeInViewport({ ratio: 0.95 });
  const box = (await target.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
}

test('a waiting approval shows on the dashboard and as the menu badge, and is approved from a 390-px phone', async ({ page, request }) => {
  const email = `phone-${randomUUID().slice(0, 8)}@example.com`;
  const customer = await apiSignIn(request, email);
  const userId = (await api(request, customer, 'getProfileBearerSettings', {}, 'GET')).profile.id as string;
  const maker = await adminToken(request, MAKER);
  const made = await api(request, maker, 'adminAdjustWalletBearerAdmin', {
    userId,
    amount: 5321,
    reason: 'goodwill credit, ticket 390',
  });
  expect(made.status).toBe('pending');

  await page.setViewportSize(PHONE);
  await consoleSignIn(page, request, CHECKER);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Loading')).toHaveCount(0);
  const pending = (await api(request, maker, 'adminDashboardQueuesBearerAdmin', {}, 'GET')).approvals.pending as number;
  expect(pending).toBeGreaterThanOrEqual(1);
  // The dashboard's tile, in reach on the phone.
  const tile = page.getByRole('region', { name: 'Waiting for an operator' }).getByRole('link', { name: /Approvals waiting/ });
  await expect(tile).toHaveAccessibleName(new RegExp(`^${pending}\\s*Approvals waiting`));
  await expectInReach(tile);
  // The menu button says something waits behind it; inside, the Approvals link carries the count.
  const menu = page.getByRole('button', { name: /^Console menu, \d+ waiting$/ });
  await expect(menu).toBeVisible();
  await expectInReach(menu);
  await menu.click();
  const nav = page.getByRole('navigation', { name: 'Console' });
  const approvals = nav.getByRole('link', { name: `Approvals, ${pending} waiting`, exact: true });
  await expect(approvals).toBeVisible();
  await expect(approvals).toContainText(String(pending));
  await expectInReach(approvals);
  await expectAccessible(page, 'console-menu-badge-phone');
  await page.getByRole('button', { name: 'Console menu' }).click();
  await expect(nav).toBeHidden();

  await tile.click();
  await expect(page.getByRole('heading', { name: 'Approvals', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/console\/approvals\?status=pending/);
  const card = page
    .getByRole('list', { name: /pending approval requests/ })
    .getByRole('listitem')
    .filter({ hasText: email });
  await expect(card).toHaveCount(1);
  await expect(card.getByRole('link', { name: email })).toHaveAttribute('href', `/console/customers/${userId}`);
  await expect(card).toContainText(MAKER);
  await expect(card).toContainText('goodwill credit, ticket 390');
  const approve = card.getByRole('button', { name: 'Approve Wallet adjustment of ₦5,321.00' });
  await expectInReach(approve);
  await expectInReach(card.getByRole('button', { name: 'Reject Wallet adjustment of ₦5,321.00' }));
  await expectNoSidewaysScroll(page);
  await expectAccessible(page, 'console-approvals-phone');

  await approve.click();
  const dialog = page.getByRole('dialog', { name: /^Approve: Wallet adjustment of ₦5,321\.00/ });
  const since = Date.now() - 1;
  await dialog.getByRole('button', { name: 'Approve' }).click();
  const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
  const done = page.getByRole('status').filter({ hasText: 'Wallet adjustment of ₦5,321.00: approved.' });
  await expect(stepUp.or(done).first()).toBeVisible();
  if (await stepUp.isVisible()) await typeCode(page, 'Confirmation code', await newestCode(request, CHECKER, 'mailbox', since));
  await expect(done).toBeVisible();
  // The card leaves the pending list without a reload, and the customer is credited once.
  await expect(card).toHaveCount(0);
  expect((await api(request, customer, 'getWalletStateBearerWallet', {}, 'GET')).balance).toBe(5321);
});

test("a purchase's refund waiting for approval names the purchase by its reference, a link to its page", async ({ page, request }) => {
  const c = await readyCustomer(request, MAKER, 1_000);
  // A recipient ending 4040: the sandbox provider never settles it.
  const res = await request.post(ops.buyAirtime, {
    data: { data: { network: 'mtn', phone: '08031234040', amount: 100, pin: TX_PIN } },
    headers: { authorization: `Bearer ${c.token}`, 'idempotency-key': randomUUID() },
  });
  const bought = (await res.json()).transaction as { id: string; reference: string };
  const made = await api(request, await adminToken(request, MAKER), 'adminResolveVtuTransactionBearerAdmin', {
    id: bought.id,
    outcome: 'failed',
    note: 'provider confirmed: never delivered (phone)',
  });
  expect(made.status).toBe('pending');

  await page.setViewportSize(PHONE);
  const token = await newAdmin(page, request, '/console/approvals?status=pending');
  const card = page
    .getByRole('list', { name: /pending approval requests/ })
    .getByRole('listitem')
    .filter({ hasText: bought.reference });
  await expect(card).toHaveCount(1);
  const link = card.getByRole('link', { name: bought.reference });
  await expect(link).toHaveAttribute('href', `/console/transactions?t_reference=${bought.reference}`);
  await expectInReach(link);
  await expectNoSidewaysScroll(page);
  await link.click();
  await expect(page.getByRole('heading', { name: `Reports and support about ${bought.reference}`, level: 2 })).toBeVisible();
  // Decided, so it waits for no one after this run.
  await api(request, token, 'adminRejectRequestBearerAdmin', { id: made.approval.id, reason: 'e2e: decided' });
});

test('the dashboard at 390 px: cards, no sideways scroll, every tile a link in reach', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  await newAdmin(page, request, '/console');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Loading')).toHaveCount(0);
  // Every table is a list of cards on a phone.
  await expect(page.getByRole('table')).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  const tiles = page.getByRole('region', { name: 'Waiting for an operator' }).getByRole('link');
  expect(await tiles.count()).toBeGreaterThanOrEqual(8);
  for (const tile of await tiles.all()) await expectInReach(tile);
  await expectAccessible(page, 'console-dashboard-phone');
});

test("a customer's page at 390 px: no sideways scroll, its actions in reach", async ({ page, request }) => {
  const email = `phone-page-${randomUUID().slice(0, 8)}@example.com`;
  const customer = await apiSignIn(request, email);
  const userId = (await api(request, customer, 'getProfileBearerSettings', {}, 'GET')).profile.id as string;

  await page.setViewportSize(PHONE);
  await newAdmin(page, request, `/console/customers/${userId}`);
  await expect(page.getByRole('heading', { name: email, level: 1 })).toBeVisible();
  await expect(page.getByLabel('Loading')).toHaveCount(0);
  await expect(page.getByRole('table')).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  for (const action of ['Freeze', 'Sign out everywhere', 'Adjust wallet'])
    await expectInReach(page.getByRole('button', { name: action, exact: true }));
  await expectAccessible(page, 'console-customer-phone');
});
