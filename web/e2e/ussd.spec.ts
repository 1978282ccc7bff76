import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { readyCustomer, TX_PIN } from './customer';
import { api } from './support';

/**
 * The sandbox USSD phone (/sandbox/ussd): a feature-phone customer dials the code and buys airtime, a data plan and
 * electricity on a saved meter through the real USSD callback, then finds the three purchases in the app's list; a
 * wrong PIN is counted as in the app.
 */
async function verifiedPhone(request: APIRequestContext, token: string): Promise<string> {
  const phone = `0803${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;
  const since = Date.now();
  await api(request, token, 'sendPhoneOtpPublicAuth', { phone });
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const box = await (await request.get(`/sandbox/sms?to=${phone}`)).json();
        code = (box.items as { createdAt: string; text: string }[])
          .filter((m) => Date.parse(m.createdAt) > since - 1)
          .map((m) => /\b(\d{6})\b/.exec(m.text)?.[1])
          .find(Boolean);
        return code;
      },
      { timeout: 30_000 },
    )
    .toBeTruthy();
  await api(request, token, 'verifyPhoneOtpPublicAuth', { phone, code });
  return phone;
}

async function dial(page: Page, phone: string) {
  await page.goto('/sandbox/ussd');
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Dial' }).click();
  await expect(page.locator('#screen')).toContainText('1 Balance');
}

async function send(page: Page, answer: string) {
  await page.getByLabel('Answer').fill(answer);
  await page.getByRole('button', { name: 'Send' }).click();
}

test('a feature-phone customer buys airtime, data and electricity on the USSD phone', async ({ page, request }) => {
  const c = await readyCustomer(request, null, 20_000);
  const phone = await verifiedPhone(request, c.token);
  await api(request, c.token, 'saveBeneficiaryBearerBeneficiaries', {
    kind: 'meter',
    label: 'Home',
    recipient: '45123450042',
    provider: 'ikeja',
    meterType: 'prepaid',
  });

  await dial(page, phone);
  for (const answer of ['2', '2', '08031239876', '200']) await send(page, answer);
  await expect(page.locator('#screen')).toContainText('Airtime N200 08031239876');
  await send(page, '0000');
  await expect(page.locator('#screen')).toHaveText('Wrong PIN, 4 tries left. Enter PIN');
  await send(page, TX_PIN);
  await expect(page.locator('#screen')).toContainText('Done: Airtime N200 08031239876');
  await expect(page.locator('#ended')).toBeVisible();

  await dial(page, phone);
  await send(page, '3');
  await expect(page.locator('#screen')).toContainText('Choose network');
  await send(page, '1');
  await expect(page.locator('#screen')).toContainText('Choose plan');
  await send(page, '1');
  await send(page, '1');
  await expect(page.locator('#screen')).toContainText('Enter PIN to pay');
  await send(page, TX_PIN);
  await expect(page.locator('#screen')).toContainText(`Done:`);

  await dial(page, phone);
  await send(page, '4');
  await expect(page.locator('#screen')).toContainText('Home ikeja 0042');
  await send(page, '1');
  await send(page, '2000');
  await send(page, TX_PIN);
  await expect(page.locator('#screen')).toContainText('Done: ikeja prepaid 45123450042 N2,000 Token');

  const mine = await api(request, c.token, 'listMyVtuTransactionsBearerVTU', {}, 'GET');
  expect((mine.items as { service: string }[]).map((t) => t.service).sort()).toEqual(['airtime', 'data', 'electricity']);
});
