import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { readyCustomer } from './customer';
import { api, expectAccessible } from './support';

/**
 * Issue 44: saved replies. An admin saves a reply with {name} on the support screen, opens a customer's thread,
 * picks it from "Saved replies": the reply box holds it with the customer's first name, and it is sent as edited.
 */
const OPERATOR = 'ops-console-canned@example.com';

test('an admin saves a reply, picks it in a thread with the name filled, edits and sends it', async ({ page, request }) => {
  const c = await readyCustomer(request, null, 1_000);
  await api(request, c.token, 'updateProfileBearerSettings', { fullName: 'Chidinma Okafor' });
  const thread = (await api(request, c.token, 'getOrCreateThreadBearerSupport')).thread;
  await api(request, c.token, 'sendSupportMessageBearerSupport', { threadId: thread.id, body: 'Where is my data?' });
  const title = `Data delay ${randomUUID().slice(0, 6)}`;

  await page.setViewportSize({ width: 1280, height: 900 });
  await consoleSignIn(page, request, OPERATOR, '/console/support');
  const manage = page.getByRole('region', { name: 'Manage saved replies' });
  await manage.getByRole('button', { name: 'Add saved reply' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add saved reply' });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Reply text').fill('Hello {name}, your data is on its way.');
  await dialog.getByRole('button', { name: 'Save reply' }).click();
  await expect(dialog).toBeHidden();
  await expect(manage.getByRole('group', { name: 'Saved replies' })).toContainText(title);

  // The same title again is refused (409), the message in the dialog.
  await manage.getByRole('button', { name: 'Add saved reply' }).click();
  await dialog.getByLabel('Title').fill(title.toUpperCase());
  await dialog.getByLabel('Reply text').fill('Another');
  await dialog.getByRole('button', { name: 'Save reply' }).click();
  await expect(dialog).toContainText('already exists');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: c.email }).click();
  const conversation = page.getByRole('region', { name: 'Conversation' });
  await expect(conversation).toContainText('Where is my data?');
  await conversation.getByLabel('Saved replies').click();
  await page.getByRole('option', { name: title }).click();
  const box = conversation.getByRole('textbox', { name: 'Reply', exact: true });
  await expect(box).toHaveValue('Hello Chidinma, your data is on its way.');
  await expectAccessible(page, 'console-canned-replies');
  await box.fill('Hello Chidinma, your data is on its way. Sorry for the wait.');
  await conversation.getByRole('button', { name: 'Send reply' }).click();
  await expect(conversation).toContainText('Sorry for the wait.');
  const sent = await api(request, c.token, 'listThreadMessagesBearerSupport', { threadId: thread.id, limit: 10, offset: 0 }, 'GET');
  expect(JSON.stringify(sent)).toContain('Hello Chidinma, your data is on its way. Sorry for the wait.');
});
