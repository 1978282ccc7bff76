import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { readyCustomer, tier2, TX_PIN } from './customer';
import { api, expectAccessible, newestCode, typeCode } from './support';
import * as ops from '../src/api/operations';

/**
 * Issue 45, the console's side: an admin finds a reseller (a customer above the default level) with their API key and
 * its purchases, suspends the key (the key is refused, 403 KEY_SUSPENDED) and resumes it, asks to grant a level
 * (four-eyes), and reads the profit by service and level.
 */
const OPERATOR = 'ops-console-resellers@example.com';
/** Prepares the customer through the API (its own sign-in code, so the console's sign-in is not in a code cooldown). */
const PREP = 'ops-console-resellers-prep@example.com';

/** Step-up when the service asks for it (the e-mailed code), then what the screen says once done. */
async function stepUp(page: Page, request: APIRequestContext, since: number, done: string) {
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  const finished = page.getByRole('status').filter({ hasText: done });
  await expect(dialog.or(finished).first()).toBeVisible();
  if (await dialog.isVisible()) {
    await typeCode(page, 'Confirmation code', await newestCode(request, OPERATOR, 'mailbox', since));
    await expect(dialog).toBeHidden();
  }
  await expect(finished).toBeVisible();
}

const buyByKey = (request: APIRequestContext, secret: string) =>
  request.post(ops.buyAirtime, {
    data: { data: { network: 'mtn', phone: '08031234567', amount: 100 } },
    headers: { authorization: `Bearer ${secret}`, 'idempotency-key': randomUUID() },
  });

test('an admin sees a reseller with key, usage and webhooks, suspends and resumes the key, asks for a level grant, reads the profit', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const c = await readyCustomer(request, PREP, 5_000);
  await tier2(request, c, 'Bola Ade');
  await api(request, c.token, 'upgradePriceLevelBearerVTU', { level: 'agent', pin: TX_PIN });
  const made = await api(request, c.token, 'createApiKeyBearerDevelopers', {
    name: 'shop site',
    mode: 'live',
    scopes: ['read', 'purchase'],
  });
  const secret = made.secret as string;
  const bought = await buyByKey(request, secret);
  expect(bought.status()).toBe(200);

  await page.setViewportSize({ width: 1280, height: 900 });
  await consoleSignIn(page, request, OPERATOR, '/console/resellers');
  const card = page.getByRole('region', { name: c.email });
  await expect(card).toContainText('Agent (upgraded)');
  const keys = card.getByRole('group', { name: `API keys of ${c.email}` });
  await expect(keys).toContainText('shop site');
  await expect(keys).toContainText(made.key.prefix);
  await expect(card.getByRole('group', { name: /Purchases by key and day/ })).toContainText('₦100');
  await expect(card.getByRole('group', { name: `Webhook endpoints of ${c.email}` })).toBeHidden();
  await expect(card).toContainText('No webhook endpoints.');
  await expectAccessible(page, 'console-resellers');

  let since = Date.now() - 1;
  await keys.getByRole('button', { name: 'Suspend key shop site' }).click();
  await stepUp(page, request, since, 'is suspended');
  const refused = await buyByKey(request, secret);
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.code).toBe('KEY_SUSPENDED');
  await expect(keys).toContainText('suspended');
  since = Date.now() - 1;
  await keys.getByRole('button', { name: 'Resume key shop site' }).click();
  await stepUp(page, request, since, 'working again');
  expect((await buyByKey(request, secret)).status()).toBe(200);

  // A level grant waits for a second admin.
  const grant = page.getByRole('form', { name: 'Grant a customer a level' });
  await grant.getByLabel('Customer ID').fill(c.id);
  await grant.getByRole('combobox', { name: 'Level', exact: true }).click();
  await page.getByRole('option', { name: 'Reseller', exact: true }).click();
  await grant.getByLabel('Reason').fill('Sells over a million a month');
  since = Date.now() - 1;
  await grant.getByRole('button', { name: 'Ask to grant' }).click();
  await stepUp(page, request, since, 'waits for a second admin');

  // The profit of today, by service and level: the agent's airtime is there.
  await page.goto('/console/profit');
  await expect(page.getByRole('heading', { level: 1, name: 'Profit' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Profit by price level' })).toContainText('Agent');
  await expect(page.getByRole('group', { name: 'Profit by service' })).toContainText('airtime');
  await expectAccessible(page, 'console-profit');
});
