import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { townOf } from '../../src/lib/town.js';
import { deviceName } from '../../src/lib/user-agent.js';
import { wordNotice } from '../../src/modules/notifications/wording/index.js';
import { call, createHarness, signIn, usingPostgres, type Harness } from '../helpers/harness.js';

/**
 * Issue 43: sign-in alerts people can read, and only for a new device. The notice names the browser and the system
 * ("New sign-in on Chrome on Android"), never the User-Agent, the method or the address, in the owner's language; the
 * same browser on the same device signing in again (an update's new version number aside) records the sign-in
 * without another alert.
 */
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.122 Mobile Safari/537.36';
const ANDROID_CHROME_UPDATED = ANDROID_CHROME.replace('126.0.6478.122', '127.0.6533.64');
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1';

describe('device names from a User-Agent', () => {
  it.each([
    [ANDROID_CHROME, 'Chrome', 'Android'],
    [IPHONE_SAFARI, 'Safari', 'iPhone'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0', 'Firefox', 'Windows'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0',
      'Edge',
      'Windows',
    ],
    [
      'Mozilla/5.0 (Linux; Android 13; SM-A135F) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0 Mobile Safari/537.36',
      'Samsung Internet',
      'Android',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
      'Safari',
      'Mac',
    ],
    ['curl/8.5.0', null, null],
  ])('%s', (ua, browser, os) => expect(deviceName(ua)).toEqual({ browser, os }));
});

// The offline GeoLite2 data fast-geoip ships: 105.112.0.0/23 is a Nigerian mobile range placed in Ikeja, 81.2.69.142
// is MaxMind's own test address in England.
describe('the town of an address', () => {
  it.each([
    ['105.112.0.1', 'Ikeja'],
    ['::ffff:105.112.0.1', 'Ikeja'],
    ['81.2.69.142', 'Long Buckby, GB'],
    ['8.8.8.8', null], // a country without a town
    ['127.0.0.1', null],
    ['10.1.2.3', null],
    ['192.168.0.10', null],
    ['100.64.0.1', null],
    ['::1', null],
    ['2c0f:f5c0::1', null], // IPv6: the data has IPv4 ranges only
    ['not an address', null],
    [undefined, null],
  ])('%s', async (ip, town) => expect(await townOf(ip)).toBe(town));
});

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const notify = (token: string, ua: string) =>
  call(
    h,
    'POST',
    '/_serverFn/notifyLoginBearerAuth',
    { device: ua.slice(0, 200), method: 'login_pin' },
    { token, headers: { 'user-agent': ua } },
  );

describe(`sign-in alerts (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('a new device is named in words; the same device again is recorded without an alert; another device alerts', async () => {
    const u = await signIn(h);
    expect((await notify(u.token, ANDROID_CHROME)).json()).toMatchObject({ recorded: true, alerted: true });
    const alerts = () =>
      rows<{ body: string; data: Record<string, string> }>(
        h.app.services.db,
        sql`SELECT body, data FROM notifications WHERE user_id = ${u.id} AND kind = 'login_alert' ORDER BY created_at`,
      );
    const [first] = await alerts();
    expect(first.body).toMatch(/^New sign-in on Chrome on Android, \d{4}-\d\d-\d\d \d\d:\d\d \(Lagos time\)\./);
    expect(first.body).not.toMatch(/Mozilla|Method|login_pin|IP address|127\.0\.0\.1/);
    expect(first.data).toMatchObject({ event: 'new_sign_in', browser: 'Chrome', os: 'Android' });
    // In the owner's language (Hausa here), from the same facts.
    const ha = wordNotice('ha', { kind: 'login_alert', title: '', body: first.body, params: first.data }, () => undefined);
    expect(ha.body).toContain('Sabon shiga ta Chrome a Android');

    // The same phone after a browser update, in a new session: recorded, no alert.
    h.clock.advance(61_000);
    const again = await signIn(h, u.email);
    expect((await notify(again.token, ANDROID_CHROME_UPDATED)).json()).toMatchObject({ recorded: true, alerted: false });
    // Once per session, as before.
    expect((await notify(again.token, ANDROID_CHROME_UPDATED)).json()).toMatchObject({ recorded: false, alerted: false });
    expect(await alerts()).toHaveLength(1);

    // Another device alerts.
    h.clock.advance(61_000);
    const other = await signIn(h, u.email);
    expect((await notify(other.token, IPHONE_SAFARI)).json()).toMatchObject({ recorded: true, alerted: true });
    const all = await alerts();
    expect(all).toHaveLength(2);
    expect(all[1].body).toMatch(/^New sign-in on Safari on iPhone/);
  });

  it("names the town a public address is in, in the owner's language; the address itself stays out", async () => {
    const u = await signIn(h);
    const res = await h.app.inject({
      method: 'POST',
      url: '/_serverFn/notifyLoginBearerAuth',
      remoteAddress: '105.112.0.1',
      headers: { authorization: `Bearer ${u.token}`, 'user-agent': ANDROID_CHROME },
      payload: { data: { method: 'login_pin' } },
    });
    expect(res.json()).toMatchObject({ recorded: true, alerted: true });
    const [alert] = await rows<{ body: string; data: Record<string, string> }>(
      h.app.services.db,
      sql`SELECT body, data FROM notifications WHERE user_id = ${u.id} AND kind = 'login_alert'`,
    );
    expect(alert.body).toMatch(/^New sign-in on Chrome on Android near Ikeja, \d{4}-/);
    expect(alert.body).not.toContain('105.112');
    expect(alert.data).toMatchObject({ event: 'new_sign_in', town: 'Ikeja' });
    const yo = wordNotice('yo', { kind: 'login_alert', title: '', body: alert.body, params: alert.data }, () => undefined);
    expect(yo.body).toContain('lórí Android nítòsí Ikeja');
  });
});
