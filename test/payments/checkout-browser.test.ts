import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectLedgerOk, listeningHarness, type Harness } from '../helpers/harness.js';
import { balance, createIntent, user } from './helpers.js';

/**
 * The sandbox checkout page driven by a real browser, from intent to credited wallet. The app listens on a real
 * port with PUBLIC_URL pointing at it, so the adapter, the checkout page and the webhook all travel over HTTP.
 */
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = fs.existsSync(CHROMIUM);

describe.skipIf(!hasChromium)(`sandbox checkout in headless Chromium (skipped: ${CHROMIUM} is not installed)`, () => {
  let h: Harness;
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    const listening = await listeningHarness();
    h = listening;
    base = listening.base;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('Pay sends a signed charge.success; the job credits the wallet', async () => {
    const u = await user(h);
    const i = await createIntent(h, u, 2500);
    expect(i.checkoutUrl.startsWith(`${base}/sandbox/processor/checkout/`)).toBe(true);
    const page = await browser.newPage();
    await page.goto(i.checkoutUrl);
    expect(await page.textContent('#amount')).toBe('₦2,500.00');
    await page.click('#pay');
    await page.waitForSelector('#result');
    expect(await page.textContent('#result')).toBe('Payment successful');
    await page.close();
    await h.app.services.jobs.drain();
    expect(await balance(h, u)).toBe(2500);
    const got = await call(h, 'GET', '/_serverFn/getTopupIntentBearerWallet', { reference: i.reference }, { token: u.token });
    expect(got.json()).toMatchObject({ status: 'success', amountPaid: 2500 });
    await expectLedgerOk(h);
  });

  it('Fail and a redirect back to the callback credit nothing', async () => {
    const u = await user(h);
    const start = await call(
      h,
      'POST',
      '/_serverFn/startProcessorTopupBearerPayments',
      { amount: 900, email: u.email, callbackUrl: `${base}/healthz` },
      { token: u.token },
    );
    expect(start.statusCode).toBe(200);
    const page = await browser.newPage();
    await page.goto(start.json().authorizationUrl);
    await Promise.all([page.waitForURL(/\/healthz\?/), page.click('#fail')]);
    expect(page.url()).toContain(`reference=${start.json().reference}`);
    await page.close();
    await h.app.services.jobs.drain();
    expect(await balance(h, u)).toBe(0);
    const v = await call(
      h,
      'POST',
      '/_serverFn/verifyProcessorTopupBearerPayments',
      { reference: start.json().reference },
      { token: u.token },
    );
    expect(v.json()).toMatchObject({ status: 'failed', credited: false });
  });
});
