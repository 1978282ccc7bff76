import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { walletBalance } from '../helpers/factories.js';
import { call, createHarness, expectLedgerOk, usingPostgres, type Harness } from '../helpers/harness.js';
import { inflateSync } from 'node:zlib';
import { reconcile, VTU_ENV } from '../vtu/helpers.js';
import { caller, PIN, saveMeter } from '../ussd/helpers.js';
import {
  ageLink,
  chat,
  confirmPin,
  linkNumber,
  pinRequest,
  pinToken,
  postWebhook,
  signatureOf,
  texts,
  webhookBody,
  whatsappPurchases,
} from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: { ...VTU_ENV } });
});
afterAll(async () => {
  await expectLedgerOk(h);
  await h.close();
});

/** A PNG's size and its inflated scanlines (the chunks' lengths and the IDAT stream must hold together). */
function decodePng(buf: Buffer) {
  let at = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (at < buf.length) {
    const length = buf.readUInt32BE(at);
    const type = buf.subarray(at + 4, at + 8).toString('ascii');
    const data = buf.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') [width, height] = [data.readUInt32BE(0), data.readUInt32BE(4)];
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  return { width, height, pixels: inflateSync(Buffer.concat(idat)) };
}

const pinRequests = async (userId: string) =>
  rows<{ state: string }>(h.app.services.db, sql`SELECT state FROM whatsapp_pin_requests WHERE user_id = ${userId}`);

describe('WhatsApp: the webhook', () => {
  it('answers the subscription handshake only with the verify token', async () => {
    const ok = await h.app.inject({
      method: 'GET',
      url: '/api/public/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=sandbox-verify&hub.challenge=1158201444',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('1158201444');
    const bad = await h.app.inject({
      method: 'GET',
      url: '/api/public/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1158201444',
    });
    expect(bad.statusCode).toBe(403);
  });

  it('refuses a post without the signature, with a wrong one, or signed over other bytes: 401, nothing done', async () => {
    const c = chat(h, '08035550001');
    const raw = JSON.stringify(webhookBody(c.waId, 'wamid.unsigned', { text: 'hi' }));
    expect((await postWebhook(h, raw, null)).statusCode).toBe(401);
    expect((await postWebhook(h, raw, signatureOf(raw, 'another-secret'))).statusCode).toBe(401);
    expect((await postWebhook(h, raw, signatureOf(`${raw} `))).statusCode).toBe(401);
    expect((await postWebhook(h, raw, 'sha256=zz')).statusCode).toBe(401);
    expect(await c.replies()).toEqual([]);
    // The same bytes correctly signed are taken.
    expect((await postWebhook(h, raw)).statusCode).toBe(200);
    expect(texts(await c.replies())).toMatch(/not linked to an account\. Open the app > Settings > WhatsApp/);
  });

  it("the sandbox's Cloud API: the access token is required, a number ending 0000 is undeliverable and the webhook goes on", async () => {
    const send = (token: string, to: string) =>
      h.app.inject({
        method: 'POST',
        url: '/api/sandbox/whatsapp/sandbox-phone-id/messages',
        headers: { authorization: `Bearer ${token}` },
        payload: { messaging_product: 'whatsapp', to, type: 'text', text: { body: 'hi' } },
      });
    expect((await send('guess', '2348035550020')).statusCode).toBe(401);
    expect((await send('sandbox-whatsapp-token', '2348035550020')).json().messages[0].id).toMatch(/^wamid\./);
    expect((await send('sandbox-whatsapp-token', '2348035550000')).json().error.code).toBe(131026);
    const c = chat(h, '08035550000');
    expect(await c.text('hi')).toEqual([]);
    expect((await h.app.inject({ method: 'GET', url: '/api/sandbox/whatsapp/messages?to=abc' })).statusCode).toBe(400);
  });

  it('refuses a signed body that is not the Cloud API webhook with 400', async () => {
    const raw = JSON.stringify({ object: 'page', entry: [] });
    expect((await postWebhook(h, raw)).statusCode).toBe(400);
  });
});

describe('WhatsApp: a linked customer', () => {
  it('links with the code from the app, then buys airtime for another number with the PIN on its page, once', async () => {
    const u = await caller(h, '08035550002', { naira: 20_000 });
    const { chat: c, out } = await linkNumber(h, u, '08035550002');
    expect(texts(out)).toMatch(/now linked to your wallet[\s\S]*m:airtime=Airtime/);
    const link = await call(h, 'GET', '/_serverFn/getWhatsappLinkBearerWhatsapp', undefined, { token: u.token });
    expect(link.json()).toMatchObject({ linked: true, phone: '08035550002' });

    expect(texts(await c.tap('m:airtime'))).toMatch(/w:self=My number\nw:other=Another number/);
    expect(texts(await c.tap('w:other', 'button_reply'))).toBe('Enter the phone number');
    expect(texts(await c.text('0803 123 9876'))).toMatch(/Enter amount \(N50-N50000\)/);
    const confirm = texts(await c.text('500'));
    expect(confirm).toMatch(/^Airtime N500 08031239876\nTotal N5\d\d\nc:pay=Pay\nc:cancel=Cancel$/);
    const toPin = await c.tap('c:pay', 'button_reply');
    expect(texts(toPin)).toMatch(/Confirm with your PIN on this secure page[\s\S]*Never type your PIN in this chat/);
    const token = pinToken(toPin);

    const shown = await pinRequest(h, token);
    expect(shown.json()).toMatchObject({ summary: 'Airtime N500 08031239876', state: 'waiting' });
    expect(shown.json().amountKobo).toBeGreaterThanOrEqual(50_000);

    const done = await confirmPin(h, token, PIN);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().result).toMatch(/^Done: Airtime N500 08031239876\. Ref vtu_/);
    const result = await c.replies();
    expect(result.map((m) => m.type)).toEqual(['text', 'image']);
    expect(texts(result)).toContain(done.json().result);

    // The receipt image: a PNG at an unguessable signed address; a changed signature finds nothing.
    const link2 = (result[1]!.body as { image: { link: string } }).image.link;
    const path = new URL(link2).pathname;
    const png = await h.app.inject({ method: 'GET', url: path });
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    const { width, height, pixels } = decodePng(png.rawPayload);
    expect(width).toBe(480);
    expect(pixels.length).toBe((width * 3 + 1) * height);
    const forged = path.replace(/([0-9a-f])\.png$/, (_, d: string) => `${d === '0' ? '1' : '0'}.png`);
    expect(forged).not.toBe(path);
    expect((await h.app.inject({ method: 'GET', url: forged })).statusCode).toBe(404);

    // The PIN page's confirm replayed: the same result, nothing bought again.
    const replay = await confirmPin(h, token, PIN);
    expect(replay.json()).toEqual(done.json());
    expect((await pinRequest(h, token)).json().state).toBe('done');
    const bought = await whatsappPurchases(h, u.id);
    expect(bought.map((b) => [b.service, b.status, b.channel])).toEqual([['airtime', 'success', 'whatsapp']]);
    expect(await walletBalance(h, u.id)).toBeCloseTo(20_000 - Number(bought[0]!.amount) / 100, 2);
    await expectLedgerOk(h);
  });

  it('buys data from a paged plan list with validity and pays electricity on a saved meter', async () => {
    const u = await caller(h, '08035550003', { naira: 20_000 });
    await saveMeter(h, u, '45123450003');
    const { chat: c } = await linkNumber(h, u, '08035550003');

    expect(texts(await c.tap('m:data'))).toMatch(/n:mtn=MTN/);
    const plans = await c.tap('n:mtn');
    const rowsShown = plans[0]!.body.interactive.action.sections[0].rows as { id: string; description?: string }[];
    expect(rowsShown.length).toBeLessThanOrEqual(10);
    expect(rowsShown[0]!.description).toMatch(/^N[\d,]+ · .*\d+ ?(day|days|month|week|hrs?)/i);
    expect(texts(await c.tap('p:0'))).toMatch(/w:self=My number/);
    expect(texts(await c.tap('w:self', 'button_reply'))).toMatch(/08035550003\nTotal N[\d,]+\nc:pay=Pay/);
    const data = await confirmPin(h, pinToken(await c.tap('c:pay', 'button_reply')), PIN);
    expect(data.json().result).toMatch(/^Done: .* 08035550003\. Ref vtu_/);
    await c.replies();

    expect(texts(await c.tap('m:bill'))).toMatch(/b:0=Home \(ikeja prepaid 45123450003\)/);
    expect(texts(await c.tap('b:0'))).toMatch(/Enter amount \(N1000-N500000\)/);
    expect(texts(await c.text('2,000'))).toMatch(/^ikeja prepaid 45123450003 N2,000\nTotal N2,\d{3}/);
    const bill = await confirmPin(h, pinToken(await c.tap('c:pay', 'button_reply')), PIN);
    expect(bill.json().result).toMatch(/^Done: ikeja prepaid 45123450003 N2,000 Token [\d-]+\. Ref vtu_/);

    const bought = await whatsappPurchases(h, u.id);
    expect(bought.map((b) => [b.service, b.status, b.channel]).sort()).toEqual([
      ['data', 'success', 'whatsapp'],
      ['electricity', 'success', 'whatsapp'],
    ]);
    const spent = bought.reduce((sum, b) => sum + Number(b.amount) / 100, 0);
    expect(await walletBalance(h, u.id)).toBeCloseTo(20_000 - spent, 2);
    await expectLedgerOk(h);
  });

  it('a duplicate webhook is taken once: one PIN link, one purchase', async () => {
    const u = await caller(h, '08035550004');
    const { chat: c } = await linkNumber(h, u, '08035550004');
    await c.tap('m:airtime');
    await c.tap('w:self', 'button_reply');
    await c.text('200');
    const first = await c.tap('c:pay', 'button_reply');
    expect(await c.again()).toEqual([]);
    expect(await c.again()).toEqual([]);
    expect(await pinRequests(u.id)).toHaveLength(1);
    const token = pinToken(first);
    const [a, b] = await Promise.all([confirmPin(h, token, PIN), confirmPin(h, token, PIN)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect((await whatsappPurchases(h, u.id)).length).toBe(1);
    await expectLedgerOk(h);
  });

  it('wrong PINs on the page count with the app and lock it there too', async () => {
    const u = await caller(h, '08035550005');
    const { chat: c } = await linkNumber(h, u, '08035550005');
    await c.tap('m:airtime');
    await c.tap('w:self', 'button_reply');
    await c.text('100');
    const token = pinToken(await c.tap('c:pay', 'button_reply'));
    const wrong = await confirmPin(h, token, '0000');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({ code: 'INVALID_PIN', details: { triesLeft: 4 } });
    const app = await call(
      h,
      'POST',
      '/api/v1/buyAirtime',
      { network: 'mtn', phone: '08035550005', amount: 100, pin: '9999' },
      { token: u.token },
    );
    expect(app.json().error.details.triesLeft).toBe(3);
    await confirmPin(h, token, '1111');
    await confirmPin(h, token, '2222');
    const locked = await confirmPin(h, token, '3333');
    expect(locked.json().error.code).toBe('PIN_LOCKED');
    // Locked in the app too, with the app's status and words; the right PIN on the page is refused while locked.
    const inApp = await call(
      h,
      'POST',
      '/api/v1/buyAirtime',
      { network: 'mtn', phone: '08035550005', amount: 100, pin: PIN },
      { token: u.token },
    );
    expect(inApp.json().error.code).toBe('PIN_LOCKED');
    expect(locked.statusCode).toBe(inApp.statusCode);
    expect(locked.json().error.message).toBe(inApp.json().error.message);
    expect((await confirmPin(h, token, PIN)).json().error.code).toBe('PIN_LOCKED');
    expect(await whatsappPurchases(h, u.id)).toEqual([]);
    await expectLedgerOk(h);
  });

  it('a purchase the provider delivers later: "working on it", then the result and receipt in the chat once', async () => {
    const u = await caller(h, '08035550013');
    const { chat: c } = await linkNumber(h, u, '08035550013');
    await c.tap('m:airtime');
    await c.tap('w:other', 'button_reply');
    await c.text('08031232222'); // 2222: the provider delivers later
    await c.text('300');
    const done = await confirmPin(h, pinToken(await c.tap('c:pay', 'button_reply')), PIN);
    expect(done.json().result).toBe('We are working on it. The result comes here in WhatsApp.');
    expect(texts(await c.replies())).toBe(done.json().result);
    await reconcile(h, 6000);
    await reconcile(h, 31_000);
    const later = await c.replies();
    expect(later.map((m) => m.type)).toEqual(['text', 'image']);
    expect(texts(later)).toMatch(/^Done: Airtime N300 08031232222\. Ref vtu_/);
    await reconcile(h, 120_000);
    expect(await c.replies()).toEqual([]);
    expect((await whatsappPurchases(h, u.id)).map((p) => p.status)).toEqual(['success']);
    await expectLedgerOk(h);
  });

  it('speaks the chosen language, in the chat and the app', async () => {
    const u = await caller(h, '08035550014');
    const { chat: c } = await linkNumber(h, u, '08035550014');
    expect(texts(await c.tap('m:language'))).toMatch(/l:ha=Hausa/);
    expect(texts(await c.tap('l:ha'))).toMatch(/Me kake so ka yi\?[\s\S]*m:balance=Ragowar kudi/);
    const prefs = await call(h, 'GET', '/_serverFn/getPreferencesBearerSettings', undefined, { token: u.token });
    expect(prefs.json().preferences.language).toBe('ha');
  });

  it('a PIN link lives 10 minutes', async () => {
    const u = await caller(h, '08035550006');
    const { chat: c } = await linkNumber(h, u, '08035550006');
    await c.tap('m:airtime');
    await c.tap('w:self', 'button_reply');
    await c.text('100');
    const token = pinToken(await c.tap('c:pay', 'button_reply'));
    h.clock.advance(11 * 60_000);
    try {
      expect((await pinRequest(h, token)).json().state).toBe('expired');
      const late = await confirmPin(h, token, PIN);
      expect(late.statusCode).toBe(409);
      expect(await whatsappPurchases(h, u.id)).toEqual([]);
    } finally {
      h.clock.advance(-11 * 60_000);
    }
    expect((await confirmPin(h, 'A'.repeat(32), PIN)).statusCode).toBe(404);
  });
});

describe('WhatsApp: who may chat', () => {
  it('asks the PIN on its page before the balance on a number linked in the last 30 days, not after', async () => {
    const u = await caller(h, '08035550007', { naira: 20_000 });
    const { chat: c } = await linkNumber(h, u, '08035550007');
    const gate = await c.tap('m:balance');
    expect(texts(gate)).toMatch(/For your security, confirm with your PIN first/);
    expect(texts(gate)).not.toMatch(/N20,000/);
    const shown = await confirmPin(h, pinToken(gate), PIN);
    expect(shown.json().result).toBe('Wallet balance: N20,000');
    expect(texts(await c.replies())).toBe('Wallet balance: N20,000');
    await ageLink(h, '08035550007');
    expect(texts(await c.tap('m:balance'))).toBe('Wallet balance: N20,000');
    expect(texts(await c.tap('m:history'))).toMatch(/^Last 5/);
  });

  it('a bad or used code links nothing; the conversation is kept in the database', async () => {
    const u = await caller(h, '08035550008');
    const code = (await call(h, 'POST', '/_serverFn/createWhatsappLinkCodeBearerWhatsapp', {}, { token: u.token })).json();
    expect(code).toMatchObject({ code: expect.stringMatching(/^\d{6}$/), sendTo: expect.stringMatching(/^\+234\d{10}$/) });
    const other = chat(h, '08035550009');
    expect(texts(await other.text(`LINK ${code.code === '000000' ? '111111' : '000000'}`))).toMatch(/code is wrong or has expired/);
    const c = chat(h, '08035550008');
    expect(texts(await c.text(`link ${code.code}`))).toMatch(/now linked/);
    expect(texts(await other.text(`LINK ${code.code}`))).toMatch(/code is wrong or has expired/);
    await c.tap('m:airtime');
    const [row] = await rows<{ state: { place: { at: string } } }>(
      h.app.services.db,
      sql`SELECT state FROM whatsapp_conversations WHERE phone = '08035550008'`,
    );
    expect(row?.state.place.at).toBe('who');
  });

  it('"this wasn\'t me" ends the link and every session of the account', async () => {
    const u = await caller(h, '08035550010');
    const { chat: c } = await linkNumber(h, u, '08035550010');
    const ended = await call(h, 'POST', '/_serverFn/endWhatsappLinkBearerWhatsapp', {}, { token: u.token });
    expect(ended.json()).toMatchObject({ ended: true, wasLinked: true });
    expect((await call(h, 'GET', '/_serverFn/getWhatsappLinkBearerWhatsapp', undefined, { token: u.token })).statusCode).toBe(401);
    expect(texts(await c.text('menu'))).toMatch(/not linked to an account/);
  });

  it('the channel switch off: a polite "not available"; on again: the menu', async () => {
    const u = await caller(h, '08035550011');
    const { chat: c } = await linkNumber(h, u, '08035550011');
    await h.app.services.db.execute(
      sql`INSERT INTO channel_settings (channel, enabled, updated_by, updated_at) VALUES ('whatsapp', false, ${u.id}, ${h.clock.now()})`,
    );
    try {
      expect(texts(await c.text('menu'))).toMatch(/on WhatsApp is not available now/);
    } finally {
      await h.app.services.db.execute(sql`DELETE FROM channel_settings WHERE channel = 'whatsapp'`);
    }
    expect(texts(await c.text('menu'))).toMatch(/m:balance=Balance/);
  });

  it('limits the messages of each number', async () => {
    const limited = await createHarness({ env: { WHATSAPP_RATE_PER_MINUTE: '2' } });
    try {
      const c = chat(limited, '08035550012');
      await c.text('hi');
      await c.text('hi');
      expect(texts(await c.text('hi'))).toBe('Too many messages. Try again in a minute.');
      expect(await c.text('hi')).toEqual([]);
      limited.clock.advance(61_000);
      expect(texts(await c.text('hi'))).toMatch(/not linked/);
    } finally {
      await limited.close();
    }
  });
});

// A second instance of the service on the same database stands for a restart (it needs a database server).
describe.skipIf(!usingPostgres)('WhatsApp: a restart', () => {
  it('the conversation goes on where it was, in a new instance of the service', async () => {
    const u = await caller(h, '08035550020', { naira: 5_000 });
    const { chat: before } = await linkNumber(h, u, '08035550020');
    expect(texts(await before.tap('m:airtime'))).toMatch(/w:self=My number\nw:other=Another number/);
    const restarted = await createHarness({ env: { ...VTU_ENV }, databaseUrl: h.config.databaseUrl! });
    try {
      const after = chat(restarted, '08035550020');
      expect(texts(await after.tap('w:other', 'button_reply'))).toBe('Enter the phone number');
      expect(texts(await after.text('0803 123 9876'))).toMatch(/Enter amount \(N50-N50000\)/);
    } finally {
      await restarted.close();
    }
  });
});
