import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { consoleSignIn } from './console-support';
import { readyCustomer, TX_PIN } from './customer';
import { api, apiSignIn, expectAccessible } from './support';

/**
 * Issue 44, in the sandbox's own admin (operator@demo.test):
 * - Message templates: the Yoruba phone code SMS reworded, a missing {{code}} refused with its message, a preview
 *   with sample values, saved (a Yoruba customer's next phone code comes in it), reset to the default; axe.
 * - Report, purchase and thread: the purchase's page lists the customer's report and the thread naming it, and one
 *   action resolves both; axe.
 */
const ADMIN = 'operator@demo.test';

test("an admin rewords a template with a preview, and resolves a purchase's report and thread at once", async ({ page, request }) => {
  const c = await readyCustomer(request, null, 2_000);
  const bought = await api(request, c.token, 'buyAirtimeBearerVTU', { network: 'mtn', phone: '08031230001', amount: 100, pin: TX_PIN });
  const reference = bought.transaction.reference as string;
  const thread = (await api(request, c.token, 'getOrCreateThreadBearerSupport')).thread;
  await api(request, c.token, 'sendSupportMessageBearerSupport', { threadId: thread.id, body: `My airtime ${reference} never came` });
  await api(request, c.token, 'createTransactionReportBearerReports', {
    reference,
    category: 'not_delivered',
    description: 'The airtime never arrived on my line',
  });

  await page.setViewportSize({ width: 1280, height: 900 });
  await consoleSignIn(page, request, ADMIN, '/console/templates?lang=yo&key=code.phoneCode');
  const region = () => page.getByRole('region', { name: 'Phone verification code (SMS)' });
  await expect(region().getByLabel('Body')).toHaveValue(/^Kóòdù ìfìdí-múlẹ̀ rẹ ni \{\{code\}\}/);

  await region().getByLabel('Body').fill('Kóòdù rẹ: kò sí.');
  await region().getByRole('button', { name: 'Preview' }).click();
  await expect(region().getByRole('alert')).toContainText('The body must contain {{code}}');

  await region().getByLabel('Body').fill('Kóòdù fóònù rẹ ni {{code}}.');
  await region().getByRole('button', { name: 'Preview' }).click();
  await expect(region().getByRole('region', { name: 'Preview' })).toContainText('Kóòdù fóònù rẹ ni 482913.');
  await expectAccessible(page, 'console-templates');
  await region().getByRole('button', { name: 'Save' }).click();
  await expect(region().getByText('Edited')).toBeVisible();

  // A Yoruba customer's next phone code comes in the saved words.
  const token = await apiSignIn(request, `yo-${randomUUID().slice(0, 8)}@example.com`);
  await api(request, token, 'updatePreferencesBearerSettings', { language: 'yo' });
  const phone = `0803${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}4301`;
  await api(request, token, 'sendPhoneOtpPublicAuth', { phone });
  await expect
    .poll(async () => ((await (await request.get(`/sandbox/sms?to=${phone}`)).json()).items as { text: string }[])[0]?.text ?? '')
    .toMatch(/^Kóòdù fóònù rẹ ni \d{6}\.$/);

  await region().getByRole('button', { name: 'Reset to default' }).click();
  await expect(region().getByLabel('Body')).toHaveValue(/^Kóòdù ìfìdí-múlẹ̀ rẹ ni \{\{code\}\}/);

  // The purchase's page: its report and the thread naming it, resolved by one action.
  await page.goto(`/console/transactions?t_reference=${reference}`);
  const kase = page.getByRole('region', { name: `Reports and support about ${reference}` });
  await expect(kase.getByRole('list', { name: 'Transaction reports' })).toContainText('open');
  await expect(kase.getByRole('link', { name: 'Support thread' })).toBeVisible();
  await expectAccessible(page, 'console-purchase-case');
  await kase.getByRole('button', { name: 'Resolve report and thread' }).click();
  const dialog = page.getByRole('dialog', { name: 'Resolve the report' });
  await dialog.getByLabel('Note to the customer').fill('Delivered late; confirmed with the network.');
  await dialog.getByRole('button', { name: 'Resolve report and thread' }).click();
  await expect(kase.getByRole('list', { name: 'Transaction reports' })).toContainText('resolved');
  await expect(kase.getByRole('list', { name: 'Support threads' })).toContainText('closed');
  const mine = await api(request, c.token, 'listMyReportsBearerReports', {}, 'GET');
  expect(JSON.stringify(mine)).toContain('resolved');
});
