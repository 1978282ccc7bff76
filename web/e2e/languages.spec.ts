import { expect, test, type Page } from '@playwright/test';
import { readyCustomer, TX_PIN } from './customer';
import { ha as haFirst } from '../src/locales/ha';
import { pcm as pcmFirst } from '../src/locales/pcm';
import { yo as yoFirst } from '../src/locales/yo';
import { haLater } from '../src/locales/later-ha';
import { pcmLater } from '../src/locales/later-pcm';
import { yoLater } from '../src/locales/later-yo';
import { names as airtime } from '../../src/modules/vtu/kinds/airtime/names';

/**
 * The four languages on the main journey (issue 29): the language is chosen on the sign-in screen, the customer signs
 * in and buys airtime, and reads the screens, the result and the inbox in that language; the account takes the
 * device's choice, so the purchase's e-mail is written in it too. English is the other journeys' language.
 */
// Each language's strings: the first screens' and the later screens' (loaded with those screens).
const ha = { ...haFirst, ...haLater };
const yo = { ...yoFirst, ...yoLater };
const pcm = { ...pcmFirst, ...pcmLater };
const fill = (s: string, v: Record<string, string> = {}) => s.replace(/\{\{(\w+)\}\}/g, (_, k: string) => v[k] ?? '');

for (const [code, m] of [
  ['ha', ha],
  ['yo', yo],
  ['pcm', pcm],
] as const) {
  test(`signs in, buys airtime and reads the result and the inbox in ${code}`, async ({ page, request }) => {
    const c = await readyCustomer(request, 'ops-languages@example.com');

    // The language is chosen before signing in; the sign-in screen answers in it at once.
    await page.goto('/');
    await page.getByLabel('Language').selectOption(code);
    await expect(page.locator('html')).toHaveAttribute('lang', code);
    await page.getByRole('button', { name: m.auth.withPin }).click();
    await page.getByLabel(m.auth.identifier).fill(c.email);
    await page.getByLabel(m.auth.loginPin).fill('864209');
    await page.getByRole('button', { name: m.auth.verify, exact: true }).click();
    await expect(page.getByTestId('balance')).toHaveText('₦20,000.00');
    await expect(page.getByRole('heading', { name: m.home.title, exact: true })).toBeVisible();

    await page.goto('/buy?service=airtime');
    await page.getByRole('textbox', { name: m.buy.phone }).fill('08031234567');
    await page.getByRole('textbox', { name: m.buy.amount }).fill('200');
    await page.getByRole('button', { name: m.buy.review }).click();
    await expect(page.getByRole('heading', { name: m.buy.confirmTitle })).toBeVisible();
    await pin(page, m);
    await expect(page.getByTestId('purchase-status')).toContainText(m.result.success);

    // The inbox words the delivered purchase in the reader's language, from its kind and params (the service's name
    // from its kind's folder, kinds/airtime/names.ts).
    const title = fill(m.notice.purchase_delivered.title, { service: airtime[code] });
    const body = fill(m.notice.purchase_delivered.body, { service: airtime[code], amount: '₦200.00', recipient: '08031234567' });
    await page.goto('/notifications');
    await expect(page.getByRole('heading', { name: m.notifications.title })).toBeVisible();
    await expect(page.getByText(title, { exact: true })).toBeVisible();
    await expect(page.getByText(body, { exact: true })).toBeVisible();

    // And the e-mail of the same notification, written by the service in that language: the account took the
    // language chosen on the sign-in screen.
    await expect
      .poll(async () => {
        const box = await (await request.get(`/sandbox/mailbox?to=${encodeURIComponent(c.email)}`)).json();
        return box.items.find((e: { subject: string; text: string }) => e.subject === title)?.text ?? '';
      })
      .toContain(body);
  });
}

async function pin(page: Page, m: typeof ha) {
  // The fourth digit submits.
  for (const d of TX_PIN) await page.getByRole('button', { name: fill(m.pin.digit, { digit: d }) }).click();
}
