import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { readyCustomer, signInWithPin, TX_PIN, type Customer } from './customer';
import { checkFits, layoutProblems } from './narrow';
import * as ops from '../src/api/operations';

/**
 * Every screen on a 360 px phone: nothing wider than the screen, no text cut, checked in the page. The main screens
 * in all four languages (Hausa and Yorùbá words are longer than English ones).
 */
test.use({ viewport: { width: 360, height: 780 } });

const LANGUAGES = ['en', 'ha', 'pcm', 'yo'] as const;

async function buyAirtime(request: APIRequestContext, c: Customer) {
  const res = await request.post(ops.buyAirtime, {
    data: { data: { network: 'mtn', phone: '08031234567', amount: 100, pin: TX_PIN } },
    headers: { authorization: `Bearer ${c.token}`, 'idempotency-key': randomUUID() },
  });
  const body = await res.json();
  expect(body.ok, JSON.stringify(body)).toBe(true);
  return body.transaction as { id: string; reference: string };
}

test('every screen fits a 360 px phone, the main ones in four languages', async ({ page, request }) => {
  test.setTimeout(480_000);
  const c = await readyCustomer(request, 'ops-narrow@example.com');
  const tx = await buyAirtime(request, c);
  // Every problem of every screen, reported together at the end.
  const problems: string[] = [];

  for (const lang of LANGUAGES) {
    await page.goto('/');
    await page.evaluate((l) => localStorage.setItem('vtu.language', l), lang);
    await checkFits(page, '/', `sign-in (${lang})`, problems);
  }

  await page.evaluate(() => localStorage.setItem('vtu.language', 'en'));
  await signInWithPin(page, c);
  const main = [
    ['/', 'home'],
    ['/buy?service=airtime', 'buy airtime'],
    ['/buy?service=data', 'buy data'],
    ['/buy?service=electricity', 'buy electricity'],
    ['/buy?service=cable', 'buy cable'],
    [`/buy/result/${tx.id}`, 'purchase result'],
    ['/transactions', 'transactions'],
    [`/transactions/${tx.reference}`, 'receipt'],
    ['/fund', 'fund'],
    ['/notifications', 'notifications'],
  ] as const;
  for (const lang of LANGUAGES) {
    await page.evaluate((l) => localStorage.setItem('vtu.language', l), lang);
    for (const [url, screen] of main) await checkFits(page, url, `${screen} (${lang})`, problems);
  }

  await page.evaluate(() => localStorage.setItem('vtu.language', 'en'));
  const others = [
    ['/buy?service=betting', 'buy betting'],
    ['/buy?service=exam', 'buy exam'],
    ['/fund/return?reference=top_unknown', 'fund return'],
    ['/transfer', 'transfer'],
    ['/kyc', 'verification'],
    ['/rewards', 'rewards'],
    ['/orders', 'orders'],
    ['/settings', 'settings'],
  ] as const;
  for (const [url, screen] of others) await checkFits(page, url, screen, problems);

  // The purchases list (its status badges) in each language.
  for (const lang of LANGUAGES) {
    await page.evaluate((l) => localStorage.setItem('vtu.language', l), lang);
    await page.goto('/transactions');
    await page.locator('label[for$="-purchases"]').click();
    await expect(page.getByRole('main').getByRole('listitem').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    problems.push(...(await layoutProblems(page)).map((p) => `purchases (${lang}): ${p}`));
  }
  expect(problems).toEqual([]);
});
