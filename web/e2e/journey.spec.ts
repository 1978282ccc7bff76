import { randomUUID } from 'node:crypto';
import { expect, test, type CDPSession, type Page } from '@playwright/test';
import { TOTP } from 'otpauth';
import { adminToken, api, apiSignIn, approveKyc, checkWidths, expectAccessible, newestCode, PNG, typeCode } from './support';
import * as ops from '../src/api/operations';

/**
 * A customer's journey through the app, in a real browser against a real server, found by labels and
 * roles: sign-up by e-mail code, transaction PIN, Tier 1 with the fake camera (operator approval through the API),
 * funding through the sandbox checkout, airtime (success, 1111 failed and refunded, 2222 processing then success
 * without reload), the receipt, Tier 2, a transfer with step-up, the inbox, a push message shown by the service
 * worker, and the cached home when offline. axe-core runs on every screen; each is shot at 360 and 1280 px.
 */
test('a customer signs up, verifies, funds, buys, transfers and reads offline', async ({ page, request, context }) => {
  const email = `ada-${randomUUID().slice(0, 8)}@example.com`;
  const admin = await adminToken(request, 'ops@example.com');
  let since = Date.now();

  // Sign-up by e-mail code.
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expectAccessible(page, 'sign-in');
  await checkWidths(page, 'sign-in');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(`We sent a 6-digit code to ${email}`)).toBeVisible();
  await expectAccessible(page, 'sign-in-code');
  await typeCode(page, '6-digit code', await newestCode(request, email, 'mailbox', since - 1));
  // A brand-new account is taken to onboarding (web/e2e/onboarding.spec.ts walks it); this journey sets things up
  // screen by screen instead.
  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
  await page.getByRole('link', { name: 'Finish later' }).click();
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
  await expect(page.getByTestId('balance')).toHaveText('₦0.00');
  await expectAccessible(page, 'home');
  await checkWidths(page, 'home');

  // The first transaction PIN: the e-mailed sign-in code minutes ago is the proof, no second code.
  await nav(page, 'Settings');
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expectAccessible(page, 'settings');
  await checkWidths(page, 'settings');
  await page.getByLabel('New PIN (4 digits)').first().fill('2580');
  await page.getByRole('button', { name: 'Set PIN' }).click();
  await expect(page.getByText('Your transaction PIN is saved.')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Confirm it is you' })).toBeHidden();

  // An authenticator makes transfers ask for step-up; enrolling one is a credential change: an e-mailed code.
  await nav(page, 'Settings');
  since = Date.now();
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await stepUp(page, await newestCode(request, email, 'mailbox', since - 1));
  const secret = (await page.locator('code').textContent())!.trim();
  const totp = new TOTP({ secret, digits: 6, period: 30 });
  const enrolmentCode = totp.generate();
  await page.getByLabel('Confirmation code').last().fill(enrolmentCode);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('An authenticator app protects your account.')).toBeVisible();

  // Tier 1: three frames from the fake camera, approved by the operator through the API (the sandbox's liveness
  // check is told to be unsure, so the frames go to the operator's queue).
  await request.post('/sandbox/identity/liveness', { data: { email, outcome: 'review' } });
  await nav(page, 'Verification');
  await page.getByRole('button', { name: /Tier 1/ }).click();
  await expectAccessible(page, 'kyc');
  await page.getByRole('button', { name: 'Open the camera' }).click();
  await page.getByRole('button', { name: 'Take the pictures' }).click();
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect(page.getByTestId('tier1-status')).toHaveText('Under review');
  await approveKyc(request, admin, email, 1);
  await page.reload();
  await expect(page.getByTestId('tier1-status')).toHaveText('Approved');
  await checkWidths(page, 'kyc');

  // Fund ₦5,000 through the sandbox checkout; the return page waits for the service's confirmation.
  await nav(page, 'Fund wallet');
  await expectAccessible(page, 'fund');
  await checkWidths(page, 'fund');
  await page.getByLabel('Amount (₦)').fill('5000');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.locator('#amount')).toBeVisible();
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByText('Your wallet was credited with ₦5,000.00.')).toBeVisible();
  await expectAccessible(page, 'fund-return');
  await nav(page, 'Home');
  await expect(page.getByTestId('balance')).toHaveText('₦5,000.00');

  // Airtime: delivered; 1111 failed and refunded; 2222 processing, then success without reload.
  const buy = async (phone: string) => {
    await nav(page, 'Buy');
    await page.getByRole('textbox', { name: 'Phone number', exact: true }).fill(phone);
    await expect(page.getByText('Detected network: MTN')).toBeVisible();
    await page.getByLabel('Amount (₦)').fill('100');
    await page.getByRole('button', { name: 'Review' }).click();
    await expect(page.getByTestId('price')).toContainText('You pay ₦');
    for (const d of '2580') await page.getByRole('button', { name: `Digit ${d}` }).click();
  };
  await buy('08031234567');
  await expect(page.getByTestId('purchase-status')).toContainText('Successful');
  await expectAccessible(page, 'buy-result');
  await checkWidths(page, 'buy-result');
  await buy('08031231111');
  await expect(page.getByTestId('purchase-status')).toContainText('Failed — refunded');
  await buy('08031232222');
  await expect(page.getByTestId('purchase-status')).toContainText('Processing');
  await expect(page.getByTestId('purchase-status')).toContainText('Successful', { timeout: 45_000 });

  // The receipt: verification link and its QR code; the public check says it is genuine.
  await page.getByRole('link', { name: 'View receipt' }).click();
  await expect(page.getByRole('img', { name: 'QR code of the receipt verification link' })).toBeVisible();
  await expectAccessible(page, 'receipt');
  await checkWidths(page, 'receipt');
  const link = await page.getByTestId('verify-link').textContent();
  await page.goto(link!);
  await expect(page.getByText('This receipt is genuine.')).toBeVisible();
  await expectAccessible(page, 'receipt-check');
  await page.goto('/transactions');
  await expect(page.getByRole('heading', { name: 'Transactions' })).toBeVisible();
  await expectAccessible(page, 'transactions');
  await checkWidths(page, 'transactions');

  // Tier 2: phone verified by SMS code, NIN with its slip; approved by the operator.
  const phone = '08035550199';
  const nin = String(10_000_000_000 + Math.floor(Math.random() * 89_999_999_999));
  await request.post('/sandbox/identity/nin', { data: { nin, firstName: 'Ada', lastName: 'Obi', phone, dateOfBirth: '1990-01-01' } });
  await nav(page, 'Verification');
  await page.getByRole('button', { name: /Tier 2/ }).click();
  since = Date.now();
  await page.getByRole('textbox', { name: 'Phone number', exact: true }).fill(phone);
  await page.getByRole('button', { name: 'Send code by SMS' }).click();
  await page.getByLabel('SMS code', { exact: true }).fill(await newestCode(request, phone, 'sms', since - 1));
  await page.getByRole('button', { name: 'Verify phone' }).click();
  await expect(page.getByText(/Phone verified/)).toBeVisible();
  await page.getByLabel('Full name as on your NIN', { exact: true }).fill('Ada Obi');
  await page.getByLabel('NIN (11 digits)', { exact: true }).fill(nin);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Photo of your NIN slip' }).click();
  await (await chooser).setFiles({ name: 'slip.png', mimeType: 'image/png', buffer: PNG });
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect(page.getByTestId('tier2-status')).toHaveText('Under review');
  await approveKyc(request, admin, email, 2);

  // Transfer to another customer, the recipient's name confirmed first, then step-up.
  const friend = `bisi${randomUUID().slice(0, 6)}`;
  const friendToken = await apiSignIn(request, `${friend}@example.com`);
  await api(request, friendToken, 'updateProfileBearerSettings', { username: friend, fullName: 'Bisi Ade' });
  await nav(page, 'Send money');
  await page.getByLabel('Recipient username').fill(friend);
  await page.getByRole('button', { name: 'Find recipient' }).click();
  await expect(page.getByText(`You are sending to Bisi Ade (@${friend})`)).toBeVisible();
  await expectAccessible(page, 'transfer');
  await checkWidths(page, 'transfer');
  await page.getByLabel('Amount (₦)').fill('500');
  for (const d of '2580') await page.getByRole('button', { name: `Digit ${d}` }).click();
  await expect(page.getByRole('dialog', { name: 'Confirm it is you' })).toBeVisible();
  // An authenticator code for the step-up (a code is accepted once: wait for the next one after enrolment's).
  await expect.poll(() => totp.generate(), { timeout: 35_000, intervals: [1000] }).not.toBe(enrolmentCode);
  await stepUp(page, totp.generate());
  await expect(page.getByText(new RegExp(`Sent ₦500.00 to @${friend}`))).toBeVisible();

  // The inbox shows what happened (the purchases, the transfer).
  await nav(page, 'Notifications');
  await expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible();
  await expect(page.getByRole('listitem').first()).toBeVisible();
  await expectAccessible(page, 'notifications');
  await checkWidths(page, 'notifications');

  // A push message delivered to the service worker shows a notification.
  const cdp = await context.newCDPSession(page);
  await deliverPush(page, cdp, { title: 'Airtime delivered', body: '₦100.00 to 08031234567', url: '/transactions' });

  // Offline: the app opens from the cache and shows the last known balance, marked offline.
  // The home screen may show a cached balance first: a reload (online) starts with no cache, so the wallet answer
  // it fetches is the truth.
  await nav(page, 'Home');
  // The body is read inside the predicate: an answer to the Home screen's own fetch can land just before the reload
  // navigates away, after which its body is gone (the server's balance either way).
  let body: { balance?: number; data?: { balance?: number } } | undefined;
  const freshWallet = page.waitForResponse(async (r) => {
    if (!r.url().includes(ops.getWalletState) || !r.ok()) return false;
    body = await r.json().catch(() => undefined);
    return body !== undefined;
  });
  await page.reload();
  await freshWallet;
  if (!body) throw new Error('no wallet answer after the reload');
  const naira = (n: number) => `₦${n.toLocaleString('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  const balance = naira((body.balance ?? body.data?.balance) as number);
  await expect(page.getByTestId('balance')).toHaveText(balance);
  await expect
    .poll(() =>
      page
        .evaluate(() => JSON.parse(localStorage.getItem('vtu.offline') ?? 'null')?.balance as number | undefined)
        .then((b) => (b === undefined ? '' : naira(b))),
    )
    .toBe(balance);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('offline-banner')).toBeVisible();
  await expect(page.getByTestId('balance')).toHaveText(balance);
  await expectAccessible(page, 'offline');
  await context.setOffline(false);
});

async function nav(page: Page, name: string) {
  const link = page.getByRole('navigation').getByRole('link', { name, exact: true });
  if (!(await link.isVisible())) await page.getByRole('button', { name: 'Main' }).click();
  await link.click();
}

async function stepUp(page: Page, code: string) {
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Code digit 1 of 6' }).click();
  await page.keyboard.type(code, { delay: 30 });
  await expect(dialog).toBeHidden();
}

/** Delivers a push message to the page's service worker through the DevTools protocol, until it shows a notification. */
async function deliverPush(page: Page, cdp: CDPSession, payload: Record<string, string>) {
  const origin = new URL(page.url()).origin;
  await page.evaluate(async () => void (await navigator.serviceWorker.ready));
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
      const r = e.registrations.find((x) => x.scopeURL.startsWith(origin) && !x.isDeleted);
      if (r) resolve(r.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const id = await registrationId;
  const titles = () => page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => n.title));
  await expect
    .poll(
      async () => {
        if (!(await titles()).includes(payload.title))
          await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: id, data: JSON.stringify(payload) });
        return titles();
      },
      { timeout: 20_000, intervals: [500, 1000, 2000] },
    )
    .toContain(payload.title);
}
