import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { adminToken, api, apiSignIn, expectAccessible } from './support';

/**
 * Issue 44: the screens and buttons an operator sees follow the roles the service declares per operation (the
 * generated role table from the OpenAPI document's `x-roles`). A support-only operator sees no button the service
 * would refuse: no approval, no wallet adjustment, no float move, no price change, no requery, no reconciliation, no
 * role grant; what support may do (freeze, sign a customer out, verify a top-up) stays.
 */
const GRANTER = 'ops-console-rolemap@example.com';

async function screen(page: Page, path: string, heading: string | RegExp) {
  await page.goto(path);
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
  await expect(page.getByLabel('Loading')).toHaveCount(0);
}

test('a support-only operator sees no button it cannot use', async ({ page, request }) => {
  const id = randomUUID().slice(0, 8);
  const support = `support-only-${id}@example.com`;
  const customer = `roles-customer-${id}@example.com`;
  await apiSignIn(request, customer);
  const admin = await adminToken(request, GRANTER);
  await page.setViewportSize({ width: 1280, height: 860 });
  await consoleSignIn(page, request, support);
  await expect(page.getByRole('heading', { name: 'Not an operator', level: 1 })).toBeVisible();
  await api(request, admin, 'adminGrantRoleBearerAdmin', { email: support, role: 'support' });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Loading')).toHaveCount(0);
  // The channels' switches are admin's (adminSetChannels); their state still shows.
  await expect(page.getByText(/^USSD: (on|off)$/)).toBeVisible();
  // The channels' switches ("Turn USSD off"); the device's own alerts button is every operator's.
  await expect(page.getByRole('button', { name: /^Turn \w+ (on|off)$/ })).toHaveCount(0);
  await expectAccessible(page, 'console-roles dashboard (support)');

  // A customer: support freezes and signs out (adminFreezeCustomer, adminSignOutCustomer allow support); money is finance's.
  const found = await api(request, admin, 'adminSearchCustomersBearerAdmin', { q: customer, limit: '5' }, 'GET');
  await screen(page, `/console/customers/${found.items[0].userId}`, customer);
  await expect(page.getByRole('button', { name: 'Freeze' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out everywhere' })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Adjust the wallet' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Adjust wallet' })).toHaveCount(0);
  await expectAccessible(page, 'console-roles customer (support)');

  await screen(page, '/console/transactions', 'Transactions');
  await expect(page.getByRole('button', { name: 'Requery all stuck' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^(Requery|Resolve) / })).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: 'Actions' })).toHaveCount(0);

  await screen(page, '/console/topups', 'Top-ups');
  await expect(page.getByRole('button', { name: 'Run reconciliation' })).toHaveCount(0);
  await screen(page, '/console/topups?kind=settlements', 'Top-ups');
  await expect(page.getByRole('button', { name: /^Correct / })).toHaveCount(0);

  await screen(page, '/console/shop', 'Marketplace and subscriptions');
  await expect(page.getByRole('tab', { name: 'Marketplace orders' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Products' })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Subscription plans' })).toHaveCount(0);

  // Operators: their own passkeys and their own console sessions (this one, which the sign-out button ends); roles,
  // invitations and other operators' sessions are admin's.
  await screen(page, '/console/operators', 'Operators');
  await expect(page.getByRole('button', { name: 'Add a passkey' })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Grant a role' })).toHaveCount(0);
  const sessions = page.getByRole('region', { name: 'My console sessions' });
  await expect(sessions).toContainText(`${support} (this session)`);
  await expect(sessions).not.toContainText(GRANTER);
  await expect(page.getByRole('button', { name: /^(Revoke|End session)/ })).toHaveCount(0);
  await expectAccessible(page, 'console-roles operators (support)');

  // Screens of other roles, reached by their address, say so and show none of their buttons.
  for (const [path, title] of [
    ['/console/approvals', 'Approvals'],
    ['/console/catalogue', 'Catalogue and pricing'],
  ] as const) {
    await screen(page, path, title);
    await expect(page.getByRole('alert')).toContainText('not allowed');
    await expect(
      page.getByRole('button', { name: /^(Approve|Reject|Fund float|Ask for approval|Set markup|Switch (on|off))/ }),
    ).toHaveCount(0);
  }
  await expectAccessible(page, 'console-roles other screen (support)');
});
