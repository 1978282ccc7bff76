import { expect, test, type Page } from '@playwright/test';
import { readyCustomer, signInWithPin, TX_PIN, typePin } from './customer';
import { brokenWords } from './narrow';
import { expectAccessible } from './support';

/**
 * Issue 43: the buy screen on the phones customers hold (360 × 740). The service grid (and every other text on the
 * screen) wraps between words only, in the four languages and at 320 px with 200 % text, four tiles a row at 360 px
 * and three at 320 px; Airtime picked from the home screen's grid reaches its PIN pad in view, and the fourth digit
 * buys (no Confirm tap); a form whose total the balance cannot pay is kept while the wallet is funded with what is
 * missing, and bought after. The customers are the sandbox's own: Tier 1 from its liveness check, no operator.
 */
test.use({ viewport: { width: 360, height: 740 } });

const LANGUAGES = ['en', 'ha', 'pcm', 'yo'] as const;

/** The service tiles on the first row of the grid, and the labels wider than their tile. */
async function grid(page: Page) {
  return page.evaluate(() => {
    const tiles = [...document.querySelectorAll('.service-tile')];
    const top = tiles[0].getBoundingClientRect().top;
    return {
      perRow: tiles.filter((t) => Math.abs(t.getBoundingClientRect().top - top) < 2).length,
      spilling: [...document.querySelectorAll('.service-label')]
        .filter((l) => l.scrollWidth > l.clientWidth + 1)
        .map((l) => `"${l.textContent}" (${l.scrollWidth} in ${l.clientWidth})`),
    };
  });
}

async function openBuy(page: Page, service = 'airtime') {
  await page.goto(`/buy?service=${service}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('.service-tile[aria-current="page"]')).toHaveCount(1);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(200);
}

test('the buy screen breaks no word at 360 px in four languages, nor at 320 px with 200 % text', async ({ page, request }) => {
  test.setTimeout(300_000);
  const c = await readyCustomer(request, null);
  await signInWithPin(page, c);
  // Every problem of every language, reported together at the end.
  const problems: string[] = [];

  for (const lang of LANGUAGES) {
    // The language as the other specs switch it after signing in (narrow.spec.ts): the app reads it when it starts.
    await page.evaluate((l) => localStorage.setItem('vtu.language', l), lang);
    // The buy screen as it opens (airtime), and with the tile of the longest words chosen.
    for (const service of ['airtime', 'electricity']) {
      await openBuy(page, service);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      problems.push(...(await brokenWords(page)).map((w) => `${lang}, ${service}, 360 px: ${w}`));
      const g = await grid(page);
      expect(g.perRow, `tiles a row (${lang}, 360 px)`).toBe(4);
      problems.push(...g.spilling.map((s) => `${lang}, ${service}, 360 px, a label wider than its tile: ${s}`));
    }
    await expectAccessible(page, `buy (${lang})`);
  }

  await page.evaluate(() => localStorage.setItem('vtu.language', 'en'));
  await page.setViewportSize({ width: 320, height: 740 });
  await openBuy(page);
  expect((await grid(page)).perRow, 'tiles a row (320 px)').toBe(3);
  problems.push(...(await brokenWords(page)).map((w) => `en, 320 px: ${w}`));
  // 200 % text: the tiles grow with it (fewer a row), and still no word breaks.
  await page.evaluate(() => (document.documentElement.style.fontSize = '200%'));
  await page.waitForTimeout(200);
  problems.push(...(await brokenWords(page)).map((w) => `en, 320 px, 200 % text: ${w}`));
  problems.push(...(await grid(page)).spilling.map((s) => `en, 320 px, 200 % text, a label wider than its tile: ${s}`));
  await expectAccessible(page, 'buy (320 px, 200 % text)');
  expect(problems).toEqual([]);
});

/** A segmented control's segments (its radio inputs' labels) and those whose text is wider than their segment. */
async function segments(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('.mantine-SegmentedControl-label')]
      .filter((l) => l.scrollWidth > l.clientWidth + 1)
      .map((l) => `"${l.textContent}" (${l.scrollWidth} in ${l.clientWidth})`),
  );
}

/**
 * The segmented controls (eSIM: new or top-up; Transactions: wallet or purchases) wrap between words only, in the
 * four languages at 360 px and at 320 px with 200 % text, with each segment's choice shown.
 */
test('the eSIM and Transactions segmented controls break no word at 360 px, nor at 320 px with 200 % text', async ({ page, request }) => {
  test.setTimeout(300_000);
  const c = await readyCustomer(request, null);
  await signInWithPin(page, c);
  const problems: string[] = [];
  const measure = async (where: string) => {
    await page.waitForTimeout(200);
    problems.push(...(await brokenWords(page)).map((w) => `${where}: ${w}`));
    problems.push(...(await segments(page)).map((s) => `${where}, a segment wider than its box: ${s}`));
  };
  const visit = async (where: string) => {
    await openBuy(page, 'esim');
    const esim = page.getByRole('radiogroup');
    await expect(esim.getByRole('radio')).toHaveCount(2);
    await measure(`${where}, eSIM`);
    await esim.locator('label').nth(1).click();
    await measure(`${where}, eSIM top-up`);
    await page.goto('/transactions');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await measure(`${where}, transactions`);
    await page.getByRole('radiogroup').locator('label').nth(1).click();
    await measure(`${where}, purchases`);
  };
  for (const lang of LANGUAGES) {
    await page.evaluate((l) => localStorage.setItem('vtu.language', l), lang);
    await visit(`${lang}, 360 px`);
    await expectAccessible(page, `purchases (${lang})`);
  }
  await page.evaluate(() => localStorage.setItem('vtu.language', 'en'));
  await page.setViewportSize({ width: 320, height: 740 });
  await page.addInitScript(() => document.addEventListener('DOMContentLoaded', () => (document.documentElement.style.fontSize = '200%')));
  await visit('en, 320 px, 200 % text');
  expect(problems).toEqual([]);
});

test('Airtime from the home grid: Review brings the PIN pad into view, and the fourth digit buys', async ({ page, request }) => {
  const c = await readyCustomer(request, null);
  await signInWithPin(page, c);
  const services = page.getByRole('navigation', { name: 'Services' });
  await expect(services.getByRole('link')).toHaveCount(10);
  await expectAccessible(page, 'home');
  await services.getByRole('link', { name: 'Airtime', exact: true }).click();
  await expect(page).toHaveURL(/\/buy\?service=airtime$/);
  await expect(services.getByRole('link', { name: 'Airtime', exact: true })).toHaveAttribute('aria-current', 'page');

  await page.getByRole('textbox', { name: 'Phone number', exact: true }).fill('08031234567');
  await expect(page.getByText('Detected network: MTN')).toBeVisible();
  await page.getByLabel('Amount (₦)').fill('100');
  await page.getByRole('button', { name: 'Review' }).click();
  const pad = page.getByRole('group', { name: 'Transaction PIN' });
  await expect(pad).toBeInViewport({ ratio: 1 });
  await expect(pad).toBeFocused();
  await expectClearOfTabBar(page);
  await expect(page.getByRole('button', { name: /confirm/i })).toHaveCount(0);

  // A wrong PIN: the pad clears, says so, and is ready (in view, focused) for another try.
  for (const d of '9999') await page.getByRole('button', { name: `Digit ${d}` }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'That PIN is not right' })).toBeVisible();
  await expect(page.getByTestId('pin-dots')).toHaveAttribute('aria-label', '0 of 4 digits entered');
  await expect(pad).toBeInViewport({ ratio: 1 });
  await expect(pad).toBeFocused();

  // The right PIN from the keyboard: the fourth digit buys.
  await page.keyboard.type(TX_PIN);
  await expect(page.getByTestId('purchase-status')).toContainText('Successful');
});

test('a balance too low: the form is kept while the wallet is funded with what is missing, then bought', async ({ page, request }) => {
  const c = await readyCustomer(request, null, 100);
  await signInWithPin(page, c);
  await page.goto('/buy?service=airtime');
  await page.getByRole('textbox', { name: 'Phone number', exact: true }).fill('08031234567');
  await page.getByLabel('Amount (₦)').fill('500');
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Your balance is too low' })).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Fund wallet' }).click();

  // The fund screen offers what the purchase still needs.
  await expect(page.getByTestId('fund-for-purchase')).toContainText('Your Airtime purchase needs ₦400.00 more.');
  await expect(page.getByLabel('Amount (₦)')).toHaveValue('₦400');
  await expectAccessible(page, 'fund for a purchase');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.locator('#amount')).toBeVisible();
  await page.getByRole('button', { name: 'Pay' }).click();

  // Paid: straight back to the form, filled in as it was, at its review with the PIN pad in view.
  await expect(page.getByRole('group', { name: 'Transaction PIN' })).toBeInViewport();
  await expect(page.getByRole('textbox', { name: 'Phone number', exact: true })).toHaveValue('08031234567');
  await expect(page.getByLabel('Amount (₦)')).toHaveValue('₦500');
  await expect(page.getByTestId('price')).toContainText('You pay ₦500.00');
  await typePin(page);
  await expect(page.getByTestId('purchase-status')).toContainText('Successful');
});

/** The PIN pad's last row is above the phone tab bar (fixed at the bottom), not under it. */
async function expectClearOfTabBar(page: Page) {
  const pad = await page.getByRole('group', { name: 'Transaction PIN' }).boundingBox();
  const bar = await page.getByRole('navigation', { name: 'Shortcuts' }).boundingBox();
  expect(pad && bar && pad.y + pad.height <= bar.y + 1, 'the PIN pad clear of the tab bar').toBe(true);
}

/** The electricity token at 320 px with 200 % text: it wraps between its groups, never inside one. */
test('the electricity token never wraps inside a group', async ({ page, request }) => {
  const c = await readyCustomer(request, null);
  await signInWithPin(page, c);
  await page.setViewportSize({ width: 320, height: 740 });
  await page.goto('/buy?service=electricity');
  await page.getByLabel('Electricity company').selectOption({ index: 1 });
  await page.getByRole('textbox', { name: 'Meter number' }).fill('45012345678');
  await page.getByLabel('Amount (₦)').fill('2000');
  await page.getByRole('textbox', { name: 'Phone number' }).fill('08031234567');
  await page.getByRole('button', { name: 'Review' }).click();
  await typePin(page);
  await expect(page.getByTestId('purchase-status')).toContainText('Successful');
  await page.evaluate(() => (document.documentElement.style.fontSize = '200%'));
  const groups = await page.getByTestId('token').evaluate((box) =>
    [...box.querySelectorAll('.token-group')].map((g) => ({
      text: g.textContent,
      lines: new Set([...g.getClientRects()].map((r) => Math.round(r.top))).size,
    })),
  );
  expect(groups.length, 'the token in groups').toBeGreaterThan(1);
  expect(groups.filter((g) => g.lines > 1)).toEqual([]);
  // The token wraps (its box is narrower than the token on one line), between groups.
  const tops = new Set(
    await page
      .getByTestId('token')
      .evaluate((box) => [...box.querySelectorAll('.token-group')].map((g) => Math.round(g.getBoundingClientRect().top))),
  );
  expect(tops.size, 'the token on more than one line at 320 px with 200 % text').toBeGreaterThan(1);
});
