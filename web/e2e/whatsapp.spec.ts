import { expect, test, type Page } from '@playwright/test';
import { readyCustomer, signInWithPin, typePin } from './customer';
import { checkWidths, expectAccessible } from './support';

/**
 * The WhatsApp assistant in the browser (issue 46): a customer links a number from Settings with the one-time code
 * sent from the sandbox's chat emulator (/sandbox/whatsapp, which posts signed webhooks to the real endpoint), buys
 * airtime by tapping the chat's list and buttons, opens the PIN link, types a wrong PIN (tries left) and then the
 * right one on the PIN page, and sees the result and the receipt image in the chat; "this wasn't me" signs out.
 */
async function say(chat: Page, words: string) {
  await chat.getByLabel('Message', { exact: true }).fill(words);
  await chat.getByRole('button', { name: 'Send', exact: true }).click();
}

const newPhone = () => `0803${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;

test('a customer links WhatsApp in Settings, buys airtime in the chat and confirms on the PIN page', async ({ page, context, request }) => {
  const c = await readyCustomer(request, null, 20_000);
  await signInWithPin(page, c);
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'WhatsApp' });
  await expect(section.getByText('No WhatsApp number is linked.')).toBeVisible();
  await section.getByRole('button', { name: 'Link WhatsApp' }).click();
  const code = section.getByLabel('Message to send');
  await expect(code).toHaveText(/^LINK \d{6}$/);
  const message = (await code.textContent())!.trim();
  await expect(section.getByRole('link', { name: 'Open WhatsApp with this message' })).toHaveAttribute(
    'href',
    /^https:\/\/wa\.me\/234\d{10}\?text=LINK%20\d{6}$/,
  );
  await expectAccessible(page, 'settings-whatsapp-code');

  const chat = await context.newPage();
  const phone = newPhone();
  await chat.goto('/sandbox/whatsapp');
  await chat.getByLabel('Your WhatsApp number').fill(phone);
  await chat.getByRole('button', { name: 'Open chat' }).click();
  const log = chat.getByRole('log');
  await say(chat, message);
  await expect(log).toContainText('This number is now linked to your wallet.', { timeout: 20_000 });
  await expect(section.getByText(`Linked to ${phone} since`, { exact: false })).toBeVisible({ timeout: 15_000 });
  await expectAccessible(page, 'settings-whatsapp-linked');

  await log.getByRole('button', { name: 'Airtime', exact: true }).last().click();
  await log.getByRole('button', { name: 'Another number' }).last().click();
  await expect(log).toContainText('Enter the phone number');
  await say(chat, '08031239876');
  await expect(log).toContainText('Enter amount');
  await say(chat, '200');
  await log.getByRole('button', { name: 'Pay', exact: true }).last().click();
  const link = log.getByRole('link', { name: /\/whatsapp\/pin\// }).last();
  await expect(link).toBeVisible({ timeout: 20_000 });
  await expectAccessible(chat, 'whatsapp-chat');
  await checkWidths(chat, 'whatsapp-chat');

  const pin = await context.newPage();
  await pin.goto((await link.getAttribute('href'))!);
  await expect(pin.getByRole('heading', { level: 1, name: 'Confirm with your PIN' })).toBeVisible();
  await expect(pin.getByText(/08031239876/).first()).toBeVisible();
  await expectAccessible(pin, 'whatsapp-pin');
  await checkWidths(pin, 'whatsapp-pin');
  await typePin(pin, '0000');
  await expect(pin.getByRole('alert')).toHaveText('That PIN is not right. Tries left: 4.');
  await typePin(pin);
  await expect(pin.getByText('Done. Go back to WhatsApp: the result and your receipt are in the chat.')).toBeVisible({ timeout: 30_000 });
  await expectAccessible(pin, 'whatsapp-pin-done');

  // The result and the receipt image arrive in the chat.
  await expect(log.getByRole('img').last()).toBeVisible({ timeout: 30_000 });
  expect(
    await log
      .getByRole('img')
      .last()
      .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
  ).toBe(true);
  await expect(log).toContainText('08031239876');
  // The purchase is the wallet's, in the app's list like any other.
  await page.goto('/transactions');
  await expect(page.getByText(/08031239876/).first()).toBeVisible();

  // The link can be used once: opened again, it takes no PIN.
  await pin.reload();
  await expect(pin.getByText(/already confirmed/)).toBeVisible();
  await expect(pin.getByRole('group', { name: /PIN/ })).toHaveCount(0);
});

test('"this wasn\'t me" ends the WhatsApp link and signs the customer out', async ({ page, context, request }) => {
  const c = await readyCustomer(request, null, 0);
  await signInWithPin(page, c);
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'WhatsApp' });
  await section.getByRole('button', { name: 'Link WhatsApp' }).click();
  const message = (await section.getByLabel('Message to send').textContent())!.trim();
  const chat = await context.newPage();
  await chat.goto(`/sandbox/whatsapp?phone=${newPhone()}`);
  await say(chat, message);
  await expect(section.getByText(/^Linked to/)).toBeVisible({ timeout: 20_000 });
  await section.getByRole('button', { name: 'This wasn’t me' }).click();
  await expectAccessible(page, 'settings-whatsapp-not-me');
  await section.getByRole('button', { name: 'End the link and sign out everywhere' }).click();
  await expect(page.getByRole('button', { name: 'Sign in with login PIN' })).toBeVisible({ timeout: 15_000 });
  // The chat no longer reaches the wallet.
  await say(chat, 'menu');
  await expect(chat.getByRole('log')).toContainText('not linked', { timeout: 20_000 });
});
