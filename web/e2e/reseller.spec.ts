import { spawn } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Download } from '@playwright/test';
import { readyCustomer, signInWithPin, typePin, TX_PIN } from './customer';
import { api, expectAccessible } from './support';

/**
 * Issue 45, the reseller's journey: an Agent makes a test API key on the developer page, adds test money, registers a
 * test webhook endpoint at a receiver this test runs, buys airtime with the page's own curl line and the key, sees the
 * signed purchase.succeeded arrive (the signature checked with the secret the page showed), then prints a recharge
 * card sheet.
 */
interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local HTTP receiver on a free port: what it was sent, in order. */
async function receiver() {
  const got: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { got, url, close: () => new Promise((r) => server.close(r)) };
}

/** Runs a shell command line (the page's curl) and answers its standard output. */
function shell(command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${out}`))));
  });
}

/** A receiver's check of Webhook-Signature (t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">), as docs/resellers.md shows it. */
function verified(d: Received, secret: string): boolean {
  const { t, v1 } = Object.fromEntries(
    String(d.headers['webhook-signature'])
      .split(',')
      .map((p) => p.split('=')),
  );
  if (Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${d.body}`).digest('hex');
  return v1.length === expected.length && timingSafeEqual(Buffer.from(v1), Buffer.from(expected));
}

async function bytesOf(d: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of (await d.createReadStream()) as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

test('a reseller makes a test key, buys by curl, gets the signed webhook and prints a card sheet', async ({ page, request }) => {
  const hooks = await receiver();
  try {
    const c = await readyCustomer(request, null, 5_000);
    // Recharge cards are sold to Agents and above: the upgrade fee (₦2,000) from the wallet. Keys need KYC Tier 1 only.
    await api(request, c.token, 'upgradePriceLevelBearerVTU', { level: 'agent', pin: TX_PIN });
    await signInWithPin(page, c);
    await page.goto('/developers');
    const dev = page.getByRole('region', { name: 'Developers' });
    // The test world (test mode's own database) is built and migrated on its first use: this page's first visit.
    await expect(dev.getByText('No keys yet.')).toBeVisible({ timeout: 60_000 });

    await dev.getByLabel('Key name').fill('My shop (test)');
    await expect(dev.getByRole('radio', { name: 'Test (simulated, no real money)' }).first()).toBeChecked();
    await dev.getByRole('button', { name: 'Create a key' }).click();
    const key = await dev.getByRole('textbox', { name: 'Your new key' }).inputValue();
    expect(key).toMatch(/^vtu_sk_test_[A-Za-z0-9_-]{43}$/);
    await expect(dev.getByText('My shop (test)')).toBeVisible();

    await dev.getByRole('button', { name: 'Add ₦5,000.00 test money' }).click();
    await expect(dev.getByText('Test wallet: ₦5,000.00')).toBeVisible();

    const add = dev.getByRole('form', { name: 'Add endpoint' });
    await expect(add.getByRole('radio', { name: 'Test (simulated, no real money)' })).toBeChecked();
    await add.getByLabel('Endpoint address (https)').fill(hooks.url);
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = await dev.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await expect(dev.getByText(hooks.url)).toBeVisible();
    await expectAccessible(page, 'developers');

    // The page's curl line for the first purchase, with the key in KEY's place (the page never shows it again).
    const lines = (await dev.locator('pre').filter({ hasText: 'curl -s' }).innerText()).split('\n');
    expect(lines[0]).toMatch(/^KEY='vtu_sk_test_.{4}…'/);
    expect(lines.join('\n')).toContain('idempotency-key: $(date +%s%N)');
    const answer = JSON.parse(await shell([`KEY='${key}'`, ...lines.slice(1)].join('\n')));
    expect(answer).toMatchObject({ ok: true, transaction: { status: 'success' } });

    // The test world's worker delivers the event to the test endpoint, signed with its secret.
    await expect.poll(() => hooks.got.length, { timeout: 30_000 }).toBe(1);
    const [delivery] = hooks.got;
    expect(JSON.parse(delivery.body)).toMatchObject({
      type: 'purchase.succeeded',
      data: { transactionId: answer.transaction.id, service: 'airtime', amount: 100 },
    });
    expect(delivery.headers['webhook-id']).toBe(`evt_purchase_succeeded_${answer.transaction.id}`);
    expect(verified(delivery, secret)).toBe(true);
    expect(verified({ ...delivery, body: delivery.body.replace('100', '900') }, secret)).toBe(false);

    // Test money only: the live wallet still holds what the upgrade left (read in the browser: its sign-in superseded
    // the API's session); the delivery is in test mode's log.
    await page.goto('/');
    await expect(page.getByTestId('balance')).toHaveText('₦3,000.00');
    await page.goto('/developers');
    // The delivery log is the kit's table: event, status, attempts, the endpoint's answer, when, Resend.
    const logged = page.getByRole('region', { name: 'Test deliveries' }).getByRole('row').filter({ hasText: 'purchase.succeeded' });
    await expect(logged.getByRole('cell')).toHaveText(['purchase.succeeded', 'succeeded', '1', /^2\d\d \(\d+ ms\)$/, /\d/, 'Resend']);
    await expect(page.getByRole('region', { name: 'Live deliveries' }).getByText('No deliveries yet.')).toBeVisible();
    await expectAccessible(page, 'developers-delivered');

    // A card sheet: three MTN ₦100 cards, bought with the PIN and downloaded as the print-ready PDF.
    await page.goto('/recharge-cards');
    const cards = page.getByRole('region', { name: 'Recharge cards' });
    const form = cards.getByRole('form', { name: 'Buy a batch' });
    await form.getByLabel('Network').selectOption('mtn');
    await form.getByLabel('Card value').selectOption('100');
    await form.getByLabel('Number of cards (up to 1,000)').fill('3');
    await form.getByLabel('Business name on the cards (optional)').fill('My shop');
    await form.getByRole('button', { name: 'Continue' }).click();
    await typePin(page);
    await expect(cards.getByRole('status')).toContainText('Ready: 3 of 3 cards of ₦100');
    const batch = cards.getByRole('article', { name: /^MTN ₦100.* × 3$/ });
    const [pdf] = await Promise.all([page.waitForEvent('download'), batch.getByRole('button', { name: 'Download PDF' }).click()]);
    expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
    expect((await bytesOf(pdf)).subarray(0, 5).toString()).toBe('%PDF-');
    await expectAccessible(page, 'recharge-cards-sheet');
  } finally {
    await hooks.close();
  }
});
