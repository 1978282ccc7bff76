import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { expectAccessible } from './support';

/**
 * Issue 44: a broadcast shows a preview first (the message as customers will see it, the audience count, when it
 * shows, in Lagos time) and is created only once confirmed; going back creates nothing.
 */
const OPERATOR = 'ops-console-broadcast@example.com';

/** Tomorrow at 09:30 in Lagos, as a datetime-local input takes it. */
function tomorrowInLagos() {
  const lagos = new Date(Date.now() + 24 * 3600_000 + 3600_000);
  return `${lagos.toISOString().slice(0, 10)}T09:30`;
}

test('a broadcast shows the message, the audience count and the schedule, and is created only once confirmed', async ({
  page,
  request,
}) => {
  const title = `Weekend data bonus ${randomUUID().slice(0, 6)}`;
  await page.setViewportSize({ width: 1280, height: 860 });
  await consoleSignIn(page, request, OPERATOR, '/console/broadcasts');
  await expect(page.getByRole('heading', { name: 'Broadcasts and polls', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New broadcast' }).click();
  const form = page.getByRole('form', { name: 'New broadcast' });
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Message').fill('Double data on every plan this weekend.');
  await form.getByLabel('Only customers of KYC tier (and up)').fill('1');
  await form.getByLabel('Send at (Lagos time; empty for now)').fill(tomorrowInLagos());
  await form.getByRole('button', { name: 'Preview' }).click();

  const dialog = page.getByRole('dialog', { name: 'Confirm the broadcast' });
  const seen = dialog.getByRole('figure', { name: 'The message as customers see it' });
  await expect(seen).toContainText(title);
  await expect(seen).toContainText('Double data on every plan this weekend.');
  await expect(dialog.getByRole('status')).toHaveText(
    /^Goes to \d+ customers? in the audience now; shows from .*09:30.* \(Lagos time\)\.$/i,
  );
  await expectAccessible(page, 'console-broadcast-preview');
  await dialog.getByRole('button', { name: 'Back' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { name: title })).toHaveCount(0);

  await form.getByRole('button', { name: 'Preview' }).click();
  await dialog.getByRole('button', { name: /^Schedule for \d+ customers?$/ }).click();
  await expect(dialog).toBeHidden();
  const card = page.getByRole('article', { name: title });
  await expect(card).toBeVisible();
  await expect(card).toContainText('scheduled');
});
