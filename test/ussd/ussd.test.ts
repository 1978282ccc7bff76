import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, createHarness, expectLedgerOk, type Harness } from '../helpers/harness.js';
import { walletBalance } from '../helpers/factories.js';
import { reconcile, VTU_ENV } from '../vtu/helpers.js';
import { caller, dial, optionOf, PIN, post, saveMeter, ussdPurchases } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: { ...VTU_ENV, USSD_REPLY_MS: '4000' } });
});
afterAll(async () => {
  await expectLedgerOk(h);
  await h.close();
});

const keptTransaction = async (on: Harness, sessionId: string) => {
  const r = await on.app.services.db.execute(sql`SELECT transaction_id::text AS id FROM ussd_purchases WHERE session_id = ${sessionId}`);
  return (r.rows[0] as { id: string | null } | undefined)?.id ?? null;
};
const sms = async (phone: string) =>
  (await h.app.inject({ method: 'GET', url: `/sandbox/sms?to=${phone}` })).json().items as { text: string }[];

describe('USSD: a feature-phone customer', () => {
  it('buys airtime and data and pays electricity on a saved meter, each once, recorded as ussd', async () => {
    const u = await caller(h, '08031230001', { naira: 20_000 });
    await saveMeter(h, u, '45123450001');

    const airtime = dial(h, '08031230001');
    expect(await airtime.start()).toMatch(/^CON .*1 Balance\n2 Airtime/s);
    expect(await airtime.answer('2')).toContain('1 My number');
    expect(await airtime.answer('2')).toBe('CON Enter the phone number');
    expect(await airtime.answer('08031239876')).toMatch(/Enter amount/);
    expect(await airtime.answer('500')).toMatch(/Airtime N500 08031239876\nTotal N5\d\d.*Enter PIN/s);
    expect(await airtime.answer(PIN)).toMatch(/^END Done: Airtime N500 08031239876\. Ref vtu_/);

    const data = dial(h, '08031230001');
    await data.start();
    const networks = await data.answer('3');
    const plans = await data.answer(optionOf(networks, 'MTN'));
    expect(plans).toMatch(/^CON Choose plan\n1 /);
    const who = await data.answer('1');
    expect(await data.answer(optionOf(who, 'My number'))).toMatch(/Total N[\d,]+\nEnter PIN/);
    expect(await data.answer(PIN)).toMatch(/^END Done: .* 08031230001\. Ref vtu_/);

    const bill = dial(h, '08031230001');
    await bill.start();
    const saved = await bill.answer('4');
    expect(saved).toContain('Home ikeja 0001');
    expect(await bill.answer(optionOf(saved, 'Home'))).toMatch(/Enter amount \(N1000-N500000\)/);
    expect(await bill.answer('2000')).toMatch(/ikeja prepaid 45123450001 N2,000\nTotal N2,\d{3}/);
    expect(await bill.answer(PIN)).toMatch(/^END Done: ikeja prepaid 45123450001 N2,000 Token [\d-]+\. Ref vtu_/);

    const bought = await ussdPurchases(h, u.id);
    expect(bought.map((b) => [b.service, b.status, b.channel]).sort()).toEqual([
      ['airtime', 'success', 'ussd'],
      ['data', 'success', 'ussd'],
      ['electricity', 'success', 'ussd'],
    ]);
    const spent = bought.reduce((sum, b) => sum + Number(b.amount) / 100, 0);
    expect(await walletBalance(h, u.id)).toBeCloseTo(20_000 - spent, 2);

    const balance = dial(h, '08031230001');
    await balance.start();
    expect(await balance.answer('1')).toMatch(/^END Wallet balance: N/);
    const history = dial(h, '08031230001');
    await history.start();
    expect((await history.answer('5')).split('\n').length).toBeGreaterThanOrEqual(4);
    await expectLedgerOk(h);
  });

  it('a gateway retry of the PIN step buys once and shows the same screen', async () => {
    const u = await caller(h, '08031230002');
    const d = dial(h, '08031230002');
    await d.start();
    await d.answer('2');
    await d.answer('1');
    await d.answer('200');
    const first = await d.answer(PIN);
    expect(await d.retry()).toBe(first);
    expect(await d.retry()).toBe(first);
    expect((await ussdPurchases(h, u.id)).length).toBe(1);
    expect(await walletBalance(h, u.id)).toBeLessThan(20_000 - 199);
    expect(await walletBalance(h, u.id)).toBeGreaterThan(20_000 - 400);
  });

  it('wrong PINs count with the app and lock it there too', async () => {
    const u = await caller(h, '08031230003');
    const d = dial(h, '08031230003');
    await d.start();
    await d.answer('2');
    await d.answer('1');
    await d.answer('100');
    expect(await d.answer('0000')).toBe('CON Wrong PIN, 4 tries left. Enter PIN');
    // One wrong try in the app: the same count.
    const app = await call(
      h,
      'POST',
      '/api/v1/buyAirtime',
      { network: 'mtn', phone: '08031230003', amount: 100, pin: '9999' },
      { token: u.token },
    );
    expect(app.json().error.details.triesLeft).toBe(3);
    expect(await d.answer('1111')).toBe('CON Wrong PIN, 2 tries left. Enter PIN');
    await d.answer('2222');
    expect(await d.answer('3333')).toMatch(/^END Too many wrong PINs\. Try again in 15 min\./);
    const locked = await call(
      h,
      'POST',
      '/api/v1/buyAirtime',
      { network: 'mtn', phone: '08031230003', amount: 100, pin: PIN },
      { token: u.token },
    );
    expect(locked.json().error.code).toBe('PIN_LOCKED');
    expect((await ussdPurchases(h, u.id)).length).toBe(0);
  });

  it('a slow purchase ends with "we will SMS the result" and the SMS follows its settlement', async () => {
    const u = await caller(h, '08031230004');
    const d = dial(h, '08031230004');
    await d.start();
    await d.answer('2');
    await d.answer('2');
    await d.answer('08031232222'); // 2222: the provider delivers later
    await d.answer('300');
    expect(await d.answer(PIN)).toBe('END Processing: Airtime N300 08031232222. We will SMS the result.');
    expect(await sms('08031230004')).toEqual([]);
    await reconcile(h, 6000);
    await reconcile(h, 31_000);
    const [message] = await sms('08031230004');
    expect(message?.text).toMatch(/^Done: Airtime N300 08031232222\. Ref vtu_/);
    expect((await ussdPurchases(h, u.id)).map((p) => p.status)).toEqual(['success']);
  });

  it('a purchase past the time budget ends the session at once and still buys once', async () => {
    // A budget shorter than the provider's hold of 4444 (VTU_SANDBOX_HOLD_MS past the adapter's timeout).
    const slow = await createHarness({ env: { ...VTU_ENV, USSD_REPLY_MS: '300' } });
    try {
      const u = await caller(slow, '08031230005');
      const d = dial(slow, '08031230005');
      await d.start();
      for (const a of ['2', '2', '08031234444', '300']) await d.answer(a);
      expect(await d.answer(PIN)).toBe('END Processing: Airtime N300 08031234444. We will SMS the result.');
      expect(await d.retry()).toBe('END Processing: Airtime N300 08031234444. We will SMS the result.');
      // The purchase answers after the provider's real hold; its session step keeps its id.
      await vi.waitFor(async () => expect(await keptTransaction(slow, d.sessionId)).not.toBeNull(), { timeout: 8000, interval: 100 });
      expect((await ussdPurchases(slow, u.id)).length).toBe(1);
      await expectLedgerOk(slow);
    } finally {
      await slow.close();
    }
  });
});

describe('USSD: who may call', () => {
  it('tells an unknown number to sign up in the app', async () => {
    const d = dial(h, '08031230999');
    expect(await d.start()).toMatch(/^END This number has no account\. Sign up in the app/);
  });

  it('asks the PIN before the balance on a number verified in the last 30 days', async () => {
    await caller(h, '08031230006', { verifiedDaysAgo: 3 });
    const d = dial(h, '08031230006');
    await d.start();
    expect(await d.answer('1')).toBe('CON Enter your transaction PIN');
    expect(await d.answer('1234')).toBe('CON Wrong PIN, 4 tries left. Enter PIN');
    expect(await d.answer(PIN)).toBe('END Wallet balance: N20,000');
  });

  it('changes the language for the menu and the app', async () => {
    const u = await caller(h, '08031230007');
    const d = dial(h, '08031230007');
    await d.start();
    await d.answer('6');
    expect(await d.answer('2')).toMatch(/^CON 1 Ragowar kudi/);
    const prefs = await call(h, 'GET', '/_serverFn/getPreferencesBearerSettings', undefined, { token: u.token });
    expect(prefs.json().preferences.language).toBe('ha');
    expect(await dial(h, '08031230007').start()).toMatch(/^CON 1 Ragowar kudi/);
  });

  it('refuses an address outside USSD_ALLOWED_IPS and limits each number', async () => {
    const closed = await createHarness({ env: { USSD_ALLOWED_IPS: '10.20.0.0/16', USSD_RATE_PER_MINUTE: '2' } });
    try {
      const form = { sessionId: 'ATUid_x', phoneNumber: '+2348031230008', text: '' };
      expect((await post(closed, form, '127.0.0.1')).statusCode).toBe(403);
      expect((await post(closed, form, '10.20.3.4')).body).toMatch(/^END This number has no account/);
      await post(closed, form, '10.20.3.4');
      expect((await post(closed, form, '10.20.3.4')).body).toBe('END Too many requests from this number. Try again in a minute.');
    } finally {
      await closed.close();
    }
  });
});
