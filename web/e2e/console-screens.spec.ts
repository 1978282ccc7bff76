import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { TOTP } from 'otpauth';
import { consoleSignIn } from './console-support';
import { adminToken, api, apiSignIn, checkWidths, expectAccessible, newestCode, typeCode } from './support';
import * as ops from '../src/api/operations';

/**
 * Every console screen, reached through the side navigation: its heading, axe (no serious or critical finding),
 * and no sideways scrolling at 360 px, where the navigation is a menu behind a button. An operator with an
 * authenticator app confirms the authority and money actions (a role granted, a customer frozen) with its code (issue 41).
 */
const OPERATOR = 'ops-console-screens@example.com';
/** An admin (ADMIN_EMAILS, no second factor) who grants the roles, signed in through the API only, once. */
const GRANTER = 'ops-console-roles@example.com';

test('every console screen is reachable, accessible and fits a phone', async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  await consoleSignIn(page, request, OPERATOR);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Console' });
  // A link with work waiting behind it carries the count (a badge; "Approvals, 2 waiting" by name).
  const names = (await nav.getByRole('link').allInnerTexts()).map((t) => t.split(/[,\n]/)[0].trim());
  expect(names.length).toBeGreaterThanOrEqual(10);
  for (const name of names) {
    await nav.getByRole('link', { name: new RegExp(`^${name}(, \\d+ waiting)?$`) }).click();
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    await expect(page.getByLabel('Loading')).toHaveCount(0);
    await expectAccessible(page, `console ${name}`);
    await checkWidths(page, `console-${name.replace(/\W+/g, '-').toLowerCase()}`);
  }

  // On a phone the navigation is a menu behind a button.
  await page.setViewportSize({ width: 360, height: 800 });
  await expect(nav).toBeHidden();
  await page.getByRole('button', { name: 'Console menu' }).click();
  await nav.getByRole('link', { name: 'Support inbox' }).click();
  await expect(page.getByRole('heading', { name: 'Support inbox', level: 1 })).toBeVisible();
  await expect(nav).toBeHidden();
});

test('a support operator sees only the screens of the role; another screen by its address says no in words', async ({ page, request }) => {
  const email = `support-${Date.now()}@example.com`;
  await page.setViewportSize({ width: 1280, height: 860 });
  await consoleSignIn(page, request, email);
  await expect(page.getByRole('heading', { name: 'Not an operator', level: 1 })).toBeVisible();
  await api(request, await adminToken(request, GRANTER), 'adminGrantRoleBearerAdmin', { email, role: 'support' });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Console' });
  // A screen with work waiting reads "Support inbox, 2 waiting" (the badge's count).
  for (const name of ['Customers', 'KYC queue', 'Transactions', 'Airtime to cash', 'Support inbox'])
    await expect(nav.getByRole('link', { name: new RegExp(`^${name}(, \\d+ waiting)?$`) })).toBeVisible();
  for (const name of ['Approvals', 'Exports and jobs', 'Audit log', 'Dead letters', 'Growth settings', 'Catalogue and pricing'])
    await expect(nav.getByRole('link', { name, exact: true })).toHaveCount(0);
  await page.goto('/console/audit');
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  await expect(page.getByRole('alert').first()).toContainText(/not allowed/i);
});

/**
 * An authenticator app enrolled through the API for the session of `token` (enrolling asks for a step-up first: an
 * e-mailed code, as the account has no second factor yet). Returns the app: each call gives a code of a later time
 * step than the last (the service accepts a step once), waiting for the clock when it must.
 */
async function enrolAuthenticator(request: APIRequestContext, email: string, token: string) {
  const since = Date.now() - 1;
  await api(request, token, 'sendStepupEmailCodeBearer2FA');
  const { grantToken } = await api(request, token, 'verifyStepupChallengeBearer2FA', {
    totpCode: await newestCode(request, email, 'mailbox', since),
  });
  async function withGrant(name: string, data: Record<string, unknown>) {
    const res = await request.post(`/_serverFn/${name}`, {
      data: { data },
      headers: { authorization: `Bearer ${token}`, 'x-grant-token': grantToken },
    });
    const body = await res.json();
    expect(body.ok, JSON.stringify(body)).toBe(true);
    return body;
  }
  const totp = new TOTP({ secret: (await withGrant('beginTotpEnrollmentBearer2FA', {})).secret, digits: 6, period: 30 });
  let last = -1;
  async function nextCode(): Promise<string> {
    // The current step or the next one: the service takes both (window ±1) for at least 30 s more.
    for (;;) {
      const now = Math.floor(Date.now() / 30_000);
      const step = Math.max(last + 1, now);
      if (step <= now + 1) {
        last = step;
        return totp.generate({ timestamp: step * 30_000 });
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  await withGrant('confirmTotpEnrollmentBearer2FA', { code: await nextCode() });
  return nextCode;
}

test('an operator with an authenticator app confirms granting a role and freezing a customer with its code', async ({ page, request }) => {
  const id = randomUUID().slice(0, 8);
  const operator = `stepup-op-${id}@example.com`;
  const colleague = `stepup-finance-${id}@example.com`;
  const customer = `stepup-customer-${id}@example.com`;
  // A role goes to an account that has signed in once.
  await apiSignIn(request, colleague);
  await apiSignIn(request, customer);
  await page.setViewportSize({ width: 1280, height: 860 });

  // The operator signs in in the browser (its session's token, from the sign-in answer, enrols the app), is made an
  // admin, and enrols an authenticator app.
  const signedIn = page.waitForResponse((r) => r.url().includes(ops.verifyLoginOtp) && r.ok());
  await consoleSignIn(page, request, operator, '/console/operators');
  const token = (await (await signedIn).json()).session.accessToken as string;
  await expect(page.getByRole('heading', { name: 'Not an operator', level: 1 })).toBeVisible();
  await api(request, await adminToken(request, GRANTER), 'adminGrantRoleBearerAdmin', { email: operator, role: 'admin' });
  const authenticator = await enrolAuthenticator(request, operator, token);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Operators', level: 1 })).toBeVisible();

  // Granting a role asks for step-up: this session was opened with an e-mailed code, so only the app's code confirms.
  const form = page.getByRole('form', { name: 'Grant a role' });
  await form.getByLabel('Account e-mail').fill(colleague);
  await form.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: /^Finance/ }).click();
  await form.getByRole('button', { name: 'Grant role' }).click();
  const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(stepUp).toBeVisible();
  await expect(stepUp.getByRole('status')).toContainText('authenticator app');
  await expectAccessible(page, 'console-operators-step-up');
  await typeCode(page, 'Confirmation code', await authenticator());
  await expect(stepUp).toBeHidden();
  const operators = page.getByRole('group', { name: 'Operators and the roles they hold' });
  await expect(operators.getByRole('row').filter({ hasText: colleague })).toContainText('finance');
  await expect(operators.getByRole('button', { name: `Revoke finance from ${colleague}` })).toBeVisible();

  // Freezing a customer, in a new page load (the grant is gone with it): step-up again, with the app's next code.
  await page.goto('/console/customers');
  await page.getByLabel('E-mail, phone, username, name, reference or account number').fill(customer);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: customer }).click();
  await expect(page.getByRole('heading', { name: customer, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Freeze' }).click();
  const freeze = page.getByRole('dialog', { name: `Freeze ${customer}` });
  await freeze.getByLabel('Reason').fill('Card disputed by the bank');
  await freeze.getByRole('button', { name: 'Freeze' }).click();
  await expect(stepUp).toBeVisible();
  await typeCode(page, 'Confirmation code', await authenticator());
  await expect(stepUp).toBeHidden();
  await expect(freeze).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Frozen: the customer is told' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Unfreeze' })).toBeVisible();

  // The audit log's row names the customer it acted on as a link to their page (issue 44).
  const userId = new URL(page.url()).pathname.split('/').pop()!;
  await page.goto(`/console/audit?operation=adminFreezeCustomer&target=${userId}`);
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const target = page.getByRole('link', { name: userId, exact: true }).first();
  await expect(target).toHaveAttribute('href', `/console/customers/${userId}`);
  await target.click();
  await expect(page.getByRole('heading', { name: customer, level: 1 })).toBeVisible();
});
