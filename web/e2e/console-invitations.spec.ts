import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { expectAccessible } from './support';

/**
 * Issue 44: an admin invites an e-mail that has no account yet; the invitation is listed as pending, and the invited
 * person's first sign-in to the console opens it with the role. A second invitation is revoked and leaves the list.
 */
const ADMIN = 'ops-console-team@example.com';

test('an invited operator signs in to the console with the role; a revoked invitation leaves the list', async ({
  page,
  browser,
  request,
}) => {
  const invitee = `invited-${randomUUID().slice(0, 8)}@example.com`;
  const dropped = `dropped-${randomUUID().slice(0, 8)}@example.com`;
  await page.setViewportSize({ width: 1280, height: 860 });
  await consoleSignIn(page, request, ADMIN, '/console/operators');
  await expect(page.getByRole('heading', { name: 'Operators', level: 1 })).toBeVisible();

  const form = page.getByRole('form', { name: 'Grant a role' });
  const pending = page.getByRole('group', { name: 'Invitations waiting for a first sign-in' });
  for (const email of [invitee, dropped]) {
    await form.getByLabel('Account e-mail').fill(email);
    await form.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: /^Support/ }).click();
    await form.getByRole('button', { name: 'Grant role' }).click();
    await expect(page.getByRole('status').filter({ hasText: `Invitation sent to ${email}` })).toBeVisible();
    await expect(pending.getByRole('row').filter({ hasText: email })).toContainText(ADMIN);
  }
  await expectAccessible(page, 'console-operators-invitations');

  await page.getByRole('button', { name: `Revoke invitation of ${dropped}` }).click();
  await expect(pending.getByRole('row').filter({ hasText: dropped })).toHaveCount(0);
  await expect(pending.getByRole('row').filter({ hasText: invitee })).toHaveCount(1);

  // The invited person signs in for the first time, in a browser of their own: the console opens with support's screens.
  const theirs = await browser.newContext();
  const them = await theirs.newPage();
  await them.setViewportSize({ width: 1280, height: 860 });
  await consoleSignIn(them, request, invitee);
  await expect(them.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  const nav = them.getByRole('navigation', { name: 'Console' });
  await expect(nav.getByRole('link', { name: /^Support inbox/ })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Audit log', exact: true })).toHaveCount(0);
  await theirs.close();

  // Accepted: no longer pending; the operators' table lists them with the role.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Operators', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Loading')).toHaveCount(0);
  await expect(pending.getByRole('row').filter({ hasText: invitee })).toHaveCount(0);
  const operators = page.getByRole('group', { name: 'Operators and the roles they hold' });
  await expect(operators.getByRole('row').filter({ hasText: invitee })).toContainText('support');
});
