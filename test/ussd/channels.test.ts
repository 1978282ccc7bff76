import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { call, createHarness, emailGrant, expectLedgerOk, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { VTU_ENV } from '../vtu/helpers.js';
import { caller, dial, PIN, ussdPurchases } from './helpers.js';

/** Issue 46, the operator's side: the channel in the purchase search, the volume by channel, the channel switches. */
let h: Harness;
let admin: TestUser;
let phoneCustomer: TestUser;
const op = (name: string) => `/_serverFn/${name}BearerAdmin`;
/** A fresh step-up grant for the admin (a code a minute at most: the clock moves past the cooldown). */
const grant = async () => {
  h.clock.advance(61_000);
  return emailGrant(h, admin);
};
const get = async (name: string, input?: Record<string, unknown>) => {
  const res = await call(h, 'GET', op(name), input, { token: admin.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

beforeAll(async () => {
  h = await createHarness({ env: { ...VTU_ENV } });
  // 10:00 Lagos on 2026-03-10.
  h.clock.set('2026-03-10T09:00:00Z');
  admin = await signIn(h, 'admin@example.com');
  phoneCustomer = await caller(h, '08031240001', { naira: 10_000 });
});
afterAll(async () => {
  await expectLedgerOk(h);
  await h.close();
});

/** Airtime for the caller's own number by USSD: the menu's five answers. */
async function ussdAirtime(phone: string, amount: string) {
  const d = dial(h, phone);
  await d.start();
  await d.answer('2');
  await d.answer('1');
  await d.answer(amount);
  return d.answer(PIN);
}

describe('the operator sees the channel of each purchase', () => {
  it('the search shows the channel and filters by it; the dashboard counts volume by channel', async () => {
    expect(await ussdAirtime('08031240001', '300')).toMatch(/^END Done: /);
    expect(await ussdAirtime('08031240001', '200')).toMatch(/^END Done: /);
    const app = await call(
      h,
      'POST',
      '/api/v1/buyAirtime',
      { network: 'mtn', phone: '08031240009', amount: 700, pin: PIN },
      { token: phoneCustomer.token },
    );
    expect(app.statusCode, app.body).toBe(200);

    // The clock stands still: the amount orders them.
    const all = await get('adminSearchTransactions', { userId: phoneCustomer.id, sort: 'amount_desc' });
    expect(all.items.map((t: { amount: number; channel: string }) => [t.amount, t.channel])).toEqual([
      [700, 'app'],
      [300, 'ussd'],
      [200, 'ussd'],
    ]);
    const ussd = await get('adminSearchTransactions', { userId: phoneCustomer.id, channel: 'ussd', sort: 'amount_asc' });
    expect(ussd.items.map((t: { amount: number }) => t.amount)).toEqual([200, 300]);
    const byDay = await get('adminSearchTransactions', { channel: 'app', from: '2026-03-10', to: '2026-03-10' });
    expect(byDay.items.map((t: { amount: number }) => t.amount)).toEqual([700]);
    expect((await get('adminSearchTransactions', { channel: 'whatsapp' })).items).toEqual([]);
    const wrong = await call(h, 'GET', op('adminSearchTransactions'), { channel: 'sms' }, { token: admin.token });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.issues).toEqual([{ path: 'channel', message: 'Channel must be app, ussd or whatsapp' }]);

    const v = await get('adminDashboardVolume');
    expect(v.byChannel).toEqual([
      { channel: 'app', count: 1, volume: 700 },
      { channel: 'ussd', count: 2, volume: 500 },
    ]);
    expect(v.total).toEqual({ count: 3, volume: 1200 });
    expect(v.byService).toEqual([{ service: 'airtime', count: 3, volume: 1200 }]);
    expect((await get('adminDashboardVolume', { from: '2026-03-09', to: '2026-03-09' })).byChannel).toEqual([]);
  });
});

describe('an admin turns a channel off', () => {
  it('USSD off: every dial and an open session end with "not available", nothing is bought; on again: the menu', async () => {
    expect(await get('adminGetChannels')).toMatchObject({ ussd: true, whatsapp: true });
    const open = dial(h, '08031240001');
    expect(await open.start()).toMatch(/^CON /);
    await open.answer('2');
    await open.answer('1');
    await open.answer('400');

    // Only an admin, with a step-up grant.
    const customer = await call(h, 'POST', op('adminSetChannels'), { ussd: false }, { token: phoneCustomer.token });
    expect(customer.statusCode).toBe(403);
    const off = await call(h, 'POST', op('adminSetChannels'), { ussd: false }, { token: admin.token, headers: await grant() });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ ussd: false, whatsapp: true });

    const before = (await ussdPurchases(h, phoneCustomer.id)).length;
    expect(await open.answer(PIN)).toBe('END VTU Wallet by USSD is not available now');
    expect(await dial(h, '08031240001').start()).toBe('END VTU Wallet by USSD is not available now');
    expect(await ussdPurchases(h, phoneCustomer.id)).toHaveLength(before);

    const audit = await rows<{ actor_id: string; before_state: unknown; after_state: unknown }>(
      h.app.services.db,
      sql`SELECT actor_id::text AS actor_id, before_state, after_state FROM audit_log WHERE action = 'adminSetChannels' AND outcome = 'ok'`,
    );
    expect(audit).toEqual([
      { actor_id: admin.id, before_state: { ussd: true, whatsapp: true }, after_state: { ussd: false, whatsapp: true } },
    ]);

    const on = await call(h, 'POST', op('adminSetChannels'), { ussd: true }, { token: admin.token, headers: await grant() });
    expect(on.json()).toMatchObject({ ussd: true, whatsapp: true });
    expect(await dial(h, '08031240001').start()).toMatch(/^CON .*1 Balance/s);
  });

  it('refuses a change that names no channel', async () => {
    const none = await call(h, 'POST', op('adminSetChannels'), {}, { token: admin.token, headers: await grant() });
    expect(none.statusCode).toBe(400);
  });
});
