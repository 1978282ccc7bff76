import { expect, test } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { adminToken, api, apiSignIn, expectAccessible } from './support';

/**
 * Issue 44: what waits for an operator. A wallet adjustment above its threshold, made through the API by one
 * operator, waits for a second: the dashboard's tile counts it and opens the pending approvals, and the navigation's
 * Approvals link carries the count in its name.
 */
const MAKER = 'ops-console-waiting-maker@example.com';
const CHECKER = 'ops-console-waiting@example.com';
/** A second operator through the API (the checker's browser session has its e-mail code). */
const DECIDER = 'ops-console-waiting-decider@example.com';

test('a waiting approval shows on the dashboard and in the navigation, and its tile opens the pending list', async ({ page, request }) => {
  const customer = await apiSignIn(request, `waiting-${Date.now()}@example.com`);
  const userId = (await api(request, customer, 'getProfileBearerSettings', {}, 'GET')).profile.id as string;
  const maker = await adminToken(request, MAKER);
  const made = await api(request, maker, 'adminAdjustWalletBearerAdmin', { userId, amount: 5123, reason: 'goodwill credit, e2e waiting' });
  expect(made.status).toBe('pending');

  await page.setViewportSize({ width: 1280, height: 860 });
  await consoleSignIn(page, request, CHECKER);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Loading')).toHaveCount(0);
  const pending = (await api(request, maker, 'adminDashboardQueuesBearerAdmin', {}, 'GET')).approvals.pending as number;
  expect(pending).toBeGreaterThanOrEqual(1);

  const nav = page.getByRole('navigation', { name: 'Console' });
  await expect(nav.getByRole('link', { name: `Approvals, ${pending} waiting`, exact: true })).toBeVisible();
  const tile = page.getByRole('region', { name: 'Waiting for an operator' }).getByRole('link', { name: /Approvals waiting/ });
  await expect(tile).toHaveAccessibleName(new RegExp(`^${pending}\\s*Approvals waiting`));
  await expectAccessible(page, 'console-dashboard-waiting');

  await tile.click();
  await expect(page.getByRole('heading', { name: 'Approvals', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/console\/approvals\?status=pending/);
  // Both decisions in view on a laptop, not beyond a sideways-scrolling table.
  await expect(page.getByRole('button', { name: /^Approve .* of ₦5,123\.00$/ }).first()).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole('button', { name: /^Reject .* of ₦5,123\.00$/ }).first()).toBeInViewport({ ratio: 1 });

  // Decided, it no longer waits: the badge follows on the next poll or load.
  await api(request, await adminToken(request, DECIDER), 'adminRejectRequestBearerAdmin', {
    id: made.approval.id,
    reason: 'e2e: decided',
  });
  await page.reload();
  const left = pending - 1;
  await expect(nav.getByRole('link', { name: left ? `Approvals, ${left} waiting` : 'Approvals', exact: true })).toBeVisible();

  // The stuck tile says the age it counts from (VTU_STUCK_AFTER_MS, 3 s in playwright.config.ts) and opens the stuck
  // purchases themselves, first on the Transactions screen with the focus on them.
  await nav.getByRole('link', { name: 'Dashboard', exact: true }).click();
  const tiles = page.getByRole('region', { name: 'Waiting for an operator' });
  const stuck = tiles.getByRole('link', { name: /Stuck purchases/ });
  await expect(stuck).toContainText('processing over 3 s');
  await stuck.click();
  await expect(page).toHaveURL(/\/console\/transactions\?view=stuck/);
  await expect(page.getByRole('heading', { name: 'Stuck purchases', level: 2 })).toBeFocused();

  // The floats tile counts the floats below ALERT_FLOAT_BELOW (₦50,000 by default) and opens the floats themselves,
  // first on Catalogue and pricing with the focus on them.
  await nav.getByRole('link', { name: 'Dashboard', exact: true }).click();
  const floats = tiles.getByRole('link', { name: /Floats below ₦50,000\.00/ });
  await expect(floats).toBeVisible();
  await floats.click();
  await expect(page).toHaveURL(/\/console\/catalogue\?section=floats/);
  await expect(page.getByRole('heading', { name: 'Provider floats', level: 2 })).toBeFocused();

  // Dead letters say how long the oldest has been dead and open the oldest first.
  await nav.getByRole('link', { name: 'Dashboard', exact: true }).click();
  const dead = tiles.getByRole('link', { name: /Dead letters/ });
  await expect(dead).toContainText(/failed for good, oldest/);
  await expect(dead).toHaveAttribute('href', '/console/dead-letters?sort=oldest');
});
