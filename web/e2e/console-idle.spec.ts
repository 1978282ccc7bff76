import { expect, test } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { expectAccessible } from './support';
import * as ops from '../src/api/operations';

/**
 * Issue 41: an untouched console tab signs itself out after OPERATOR_IDLE_MINUTES (the e2e server's default, 15) and
 * says why, although its heartbeat, its silent refresh and its background fetches keep running; every request the
 * untouched tab makes carries `X-Activity: background`, so none moves the service's idle clock. A key press puts the
 * end off, and the console tells the service of it with one unmarked request. The page's clock is Playwright's
 * (runFor fires every timer on the way, the minute heartbeats included); the service's clock is real, so its own
 * refusal after the limit is test/security/operator-idle.test.ts.
 */
const OPERATOR = 'ops-console-idle@example.com';

test('an untouched console signs out after the idle limit and says why', async ({ page, request }) => {
  await page.clock.install();
  await consoleSignIn(page, request, OPERATOR);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByLabel('Loading')).toHaveCount(0);

  const calls: { operation: string; activity: string | undefined }[] = [];
  page.on('request', (r) => {
    const m = /\/_serverFn\/([A-Za-z]+)/.exec(r.url());
    if (m) calls.push({ operation: m[1], activity: r.headers()['x-activity'] });
  });
  const made = (operation: string) => calls.filter((c) => c.operation.startsWith(operation));

  // Ten untouched minutes: ten heartbeats, all marked, and still signed in.
  await page.clock.runFor('10:00');
  await expect.poll(() => made('heartbeatSession').length).toBeGreaterThanOrEqual(9);
  expect(calls.filter((c) => c.activity !== 'background')).toEqual([]);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

  // A key press (no request of its own): within a minute the console reports it, unmarked.
  await page.keyboard.press('Shift');
  await page.clock.runFor('01:00');
  await expect.poll(() => made('getProfile').filter((c) => c.activity === undefined).length).toBe(1);

  // 24 minutes since sign-in, 14 since the key press (the silent refresh ran at 14): still signed in.
  await page.clock.runFor('13:00');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  expect(made('refreshSession').length).toBeGreaterThanOrEqual(1);
  expect(calls.filter((c) => c.activity !== 'background' && !c.operation.startsWith('getProfile'))).toEqual([]);

  // Past 15 minutes without the person: the console ends the session at the service and says why.
  const signedOut = page.waitForResponse((r) => r.url().includes(ops.signOut));
  await page.clock.runFor('01:05');
  expect((await signedOut).ok()).toBe(true);
  await expect(page.getByRole('status').filter({ hasText: 'You were signed out after 15 minutes without activity.' })).toBeVisible();
  await expect(page.getByLabel('E-mail')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeHidden();
  await expectAccessible(page, 'console-idle-signed-out');
});
