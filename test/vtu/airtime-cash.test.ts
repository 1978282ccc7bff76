import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { signAirtimeCashWebhook } from '../../src/modules/vtu/kinds/airtime-cash/adapter.js';
import { AIRTIME_CASH_WEBHOOK_PATH } from '../../src/http/routes/airtime-cash-webhook.js';
import { call, createHarness, expectLedgerOk, fundWallet, lastCode, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { PIN, user, walletBalance } from '../helpers/factories.js';
import { reconcile, VTU_ENV } from './helpers.js';

/**
 * Airtime-to-cash (issue 32 item 2): the wallet is credited only on provider C's confirmation (signed webhook or
 * requery), once per request, the part received when less arrives; unconfirmed requests expire with nothing credited;
 * daily caps per customer and per sending number; the sending number must be verified. The sending number's last four
 * digits pick the simulator's behaviour (src/sandbox/vtu/airtime-cash.ts).
 */
let h: Harness;
let series = 100;
/** A fresh MTN number (0803 + series + last four): caps per sending number never leak between tests. */
const number = (last4: string) => `0803${series++}${last4}`;

beforeAll(async () => {
  h = await createHarness({
    env: {
      ...VTU_ENV,
      AIRTIME_CASH_CUSTOMER_DAILY_CAP: '20000',
      AIRTIME_CASH_NUMBER_DAILY_CAP: '12000',
      AIRTIME_CASH_EXPIRES_MINUTES: '30',
    },
  });
});
afterAll(async () => h.close());

/** A customer who may sell airtime from `phone` (their verified profile phone). */
const seller = (phone: string) => user(h, { pin: PIN, tier: 1, phone });

async function ask(u: TestUser, phone: string, amount: number, headers: Record<string, string> = {}) {
  return call(
    h,
    'POST',
    '/_serverFn/requestAirtimeCashBearerVTU',
    { network: 'mtn', phone, amount, pin: PIN },
    { token: u.token, headers },
  );
}
async function request(u: TestUser, phone: string, amount: number) {
  const res = await ask(u, phone, amount);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().request;
}
const get = async (u: TestUser, id: string) =>
  (await call(h, 'POST', '/_serverFn/getMyAirtimeCashRequestBearerVTU', { id }, { token: u.token })).json().request;
/** The request's state as stored (after the clock moved past an access token's life). */
const stored = async (id: string) =>
  (
    await rows<{ status: string; credited: string | null; amount_received: string | null }>(
      h.app.services.db,
      sql`SELECT status, credited::text AS credited, amount_received::text AS amount_received FROM airtime_cash_requests WHERE id = ${id}`,
    )
  )[0];
const requestIdOf = async (id: string) =>
  (await rows<{ request_id: string }>(h.app.services.db, sql`SELECT request_id FROM airtime_cash_requests WHERE id = ${id}`))[0].request_id;
const credits = async (requestId: string) =>
  (
    await rows<{ n: number }>(
      h.app.services.db,
      sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE reference = ${`airtime_cash:${requestId}`}`,
    )
  )[0].n;
const notify = (requestId: string) => h.app.inject({ method: 'POST', url: '/sandbox/vtu/airtime-cash/notify', payload: { requestId } });

describe('airtime-to-cash', () => {
  it('answers where and how to send, and credits nothing on the customer word or an unsigned webhook', async () => {
    const phone = number('5555'); // nothing ever arrives
    const u = await seller(phone);
    const r = await request(u, phone, 1000);
    expect(r).toMatchObject({
      status: 'awaiting',
      network: 'mtn',
      phone,
      amount: 1000,
      rate: 80,
      expectedCredit: 800,
      receivingNumber: '08030000600',
      ussd: '*600*08030000600*1000*PIN#',
      amountReceived: null,
      credited: null,
    });
    expect(r.reference).toMatch(/^a2c_/);
    // "I have sent it" asks the provider, whose answer is still "awaiting".
    const checked = (await call(h, 'POST', '/_serverFn/checkMyAirtimeCashRequestBearerVTU', { id: r.id }, { token: u.token })).json();
    expect(checked.request.status).toBe('awaiting');
    // A webhook claiming receipt without the provider's signature is refused and moves nothing.
    const body = JSON.stringify({ request_id: await requestIdOf(r.id), status: 'received', amount_received: '1000.00' });
    const forged = await h.app.inject({
      method: 'POST',
      url: AIRTIME_CASH_WEBHOOK_PATH,
      headers: { 'content-type': 'application/json', 'x-provider-signature': signAirtimeCashWebhook('not-the-secret', body) },
      payload: body,
    });
    expect(forged.statusCode).toBe(401);
    await reconcile(h);
    expect((await get(u, r.id)).status).toBe('awaiting');
    expect(await walletBalance(h, u.id)).toBe(0);
    expect(await credits(await requestIdOf(r.id))).toBe(0);
  });

  it('expires a request nothing reached, with nothing credited', async () => {
    const phone = number('5555');
    const u = await seller(phone);
    const r = await request(u, phone, 2000);
    await reconcile(h, 31 * 60_000);
    expect(await stored(r.id)).toEqual({ status: 'expired', credited: null, amount_received: null });
    expect(await walletBalance(h, u.id)).toBe(0);
    const inbox = await rows<{ data: any }>(h.app.services.db, sql`SELECT data FROM notifications WHERE user_id = ${u.id}`);
    expect(inbox.map((n) => n.data?.event)).toContain('airtime_cash_expired');
    await expectLedgerOk(h);
  });

  it('credits the rate of what the provider confirms by requery', async () => {
    const phone = number('0001');
    const u = await seller(phone);
    const r = await request(u, phone, 1500);
    expect(await walletBalance(h, u.id)).toBe(0);
    await reconcile(h);
    expect(await get(u, r.id)).toMatchObject({ status: 'credited', amountReceived: 1500, credited: 1200, partial: false });
    expect(await walletBalance(h, u.id)).toBe(1200);
    // Requeried again (operator), it credits nothing more.
    await reconcile(h);
    expect(await walletBalance(h, u.id)).toBe(1200);
    expect(await credits(await requestIdOf(r.id))).toBe(1);
    // The wallet's activity names the line for the app to word it.
    const log = (await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: u.token })).json().log;
    expect(log[0]).toMatchObject({ kind: 'airtime_cash', amount: 1200 });
    // A signed receipt of the credit, found by the request's reference.
    const receipt = await call(h, 'POST', '/_serverFn/signReceiptBearerReceipts', { reference: r.reference }, { token: u.token });
    expect(receipt.statusCode, receipt.body).toBe(200);
    expect(JSON.stringify(receipt.json().receipt)).toMatch(/1,200|1200/);
    await expectLedgerOk(h);
  });

  it('credits once when the confirmation is delivered twice', async () => {
    const phone = number('4444'); // requeries time out: only the webhook tells
    const u = await seller(phone);
    const r = await request(u, phone, 1000);
    const requestId = await requestIdOf(r.id);
    const first = (await notify(requestId)).json();
    expect(first).toMatchObject({ delivered: true, payload: { status: 'received' } });
    const second = (await notify(requestId)).json();
    expect(second.delivered).toBe(true);
    expect(await get(u, r.id)).toMatchObject({ status: 'credited', credited: 800 });
    expect(await walletBalance(h, u.id)).toBe(800);
    expect(await credits(requestId)).toBe(1);
    const inbox = await rows<{ n: number }>(
      h.app.services.db,
      sql`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${u.id} AND data->>'event' = 'airtime_cash_credited'`,
    );
    expect(inbox[0].n).toBe(1);
    await expectLedgerOk(h);
  });

  it('credits once when confirmations race (webhooks and a requery at the same time)', async () => {
    const phone = number('0010');
    const u = await seller(phone);
    const r = await request(u, phone, 2000);
    const requestId = await requestIdOf(r.id);
    const check = () => call(h, 'POST', '/_serverFn/checkMyAirtimeCashRequestBearerVTU', { id: r.id }, { token: u.token });
    await Promise.all([notify(requestId), notify(requestId), check(), notify(requestId)]);
    expect(await walletBalance(h, u.id)).toBe(1600);
    expect(await credits(requestId)).toBe(1);
    await expectLedgerOk(h);
  });

  it('lets two requests at once pass a cap together never', async () => {
    const phone = number('0011');
    const u = await seller(phone);
    // 7,000 + 7,000 from one number would pass its 12,000 cap: one of the two is refused.
    const answers = await Promise.all([ask(u, phone, 7000), ask(u, phone, 7000)]);
    const codes = answers.map((a) => (a.json().ok ? 'ok' : a.json().error.code)).sort();
    expect(codes).toEqual(['LIMIT_EXCEEDED', 'ok']);
  });

  it('credits the part received when less arrives', async () => {
    const phone = number('3333'); // half arrives
    const u = await seller(phone);
    const r = await request(u, phone, 3000);
    await reconcile(h);
    expect(await get(u, r.id)).toMatchObject({ status: 'credited', amountReceived: 1500, credited: 1200, partial: true });
    expect(await walletBalance(h, u.id)).toBe(1200);
    await expectLedgerOk(h);
  });

  it('keeps a request awaiting while the provider cannot say (never expired blindly)', async () => {
    const phone = number('4444');
    const u = await seller(phone);
    const r = await request(u, phone, 1000);
    await reconcile(h, 31 * 60_000);
    expect((await stored(r.id)).status).toBe('awaiting');
    expect(await walletBalance(h, u.id)).toBe(0);
  }, 30_000);

  it('closes a request the provider refuses, with no instructions', async () => {
    const phone = number('1111');
    const u = await seller(phone);
    const r = await request(u, phone, 1000);
    expect(r).toMatchObject({ status: 'failed', receivingNumber: '', ussd: '' });
    expect(r.failureReason).toMatch(/cannot sell airtime/);
  });

  it('takes only a verified sending number: the profile phone or one proved by SMS code', async () => {
    const mine = number('0002');
    const other = number('0003');
    const u = await seller(mine);
    const refused = await ask(u, other, 1000);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('NOT_ELIGIBLE');
    const sent = await call(h, 'POST', '/_serverFn/sendAirtimeCashNumberCodeBearerVTU', { phone: other }, { token: u.token });
    expect(sent.json()).toMatchObject({ sent: true });
    const wrong = await call(
      h,
      'POST',
      '/_serverFn/verifyAirtimeCashNumberBearerVTU',
      { phone: other, code: '000000' },
      { token: u.token },
    );
    expect(wrong.statusCode).toBe(400);
    const code = await lastCode(h, other, 'sms');
    const ok = await call(h, 'POST', '/_serverFn/verifyAirtimeCashNumberBearerVTU', { phone: other, code }, { token: u.token });
    expect(ok.json()).toMatchObject({ verified: true });
    const numbers = (await call(h, 'GET', '/_serverFn/listAirtimeCashNumbersBearerVTU', undefined, { token: u.token })).json().items;
    expect(numbers).toEqual([
      { phone: mine, source: 'profile' },
      { phone: other, source: 'code' },
    ]);
    expect((await request(u, other, 1000)).status).toBe('awaiting');
    // Closing the account forgets the numbers proved by code (personal data); the requests stay.
    await h.app.services.db.transaction((tx) => h.app.services.work.change(tx).emit('account.closed', { userId: u.id }).commit());
    const left = await rows<{ n: number }>(
      h.app.services.db,
      sql`SELECT count(*)::int AS n FROM airtime_cash_numbers WHERE user_id = ${u.id}`,
    );
    expect(left[0].n).toBe(0);
    // Another customer cannot use it on the strength of this customer's code.
    const v = await seller(number('0004'));
    expect((await ask(v, other, 1000)).json().error.code).toBe('NOT_ELIGIBLE');
  });

  it('holds the daily caps per sending number and per customer', async () => {
    const a = number('0005');
    const b = number('0006');
    const u = await seller(a);
    await h.app.services.db.execute(sql`INSERT INTO airtime_cash_numbers (user_id, phone, verified_at) VALUES (${u.id}, ${b}, now())`);
    await request(u, a, 10_000);
    const overNumber = await ask(u, a, 3000); // 13,000 from one number > 12,000
    expect(overNumber.statusCode, overNumber.body).toBe(400);
    expect(overNumber.json().error).toMatchObject({ code: 'LIMIT_EXCEEDED' });
    expect(overNumber.json().error.message).toMatch(/sending number/);
    await request(u, b, 10_000);
    const overCustomer = await ask(u, b, 1000); // 21,000 for the customer > 20,000
    expect(overCustomer.json().error).toMatchObject({ code: 'LIMIT_EXCEEDED' });
    expect(overCustomer.json().error.message).toMatch(/per customer/);
    // Another customer sending from `a` meets the number's cap too.
    const w = await seller(number('0007'));
    await h.app.services.db.execute(sql`INSERT INTO airtime_cash_numbers (user_id, phone, verified_at) VALUES (${w.id}, ${a}, now())`);
    expect((await ask(w, a, 3000)).json().error.code).toBe('LIMIT_EXCEEDED');
  });

  it('answers the same request for a repeated Idempotency-Key, and refuses a wrong PIN before anything', async () => {
    const phone = number('0008');
    const u = await seller(phone);
    const headers = { 'idempotency-key': `a2c-${phone}` };
    const one = (await ask(u, phone, 1000, headers)).json().request;
    const two = (await ask(u, phone, 1000, headers)).json().request;
    expect(two.id).toBe(one.id);
    const wrong = await call(
      h,
      'POST',
      '/_serverFn/requestAirtimeCashBearerVTU',
      { network: 'mtn', phone, amount: 1000, pin: '9999' },
      { token: u.token },
    );
    expect(wrong.json().error.code).toBe('INVALID_PIN');
    const mine = (await call(h, 'GET', '/_serverFn/listMyAirtimeCashRequestsBearerVTU', undefined, { token: u.token })).json();
    expect(mine.items).toHaveLength(1);
  });

  it('refuses a request whose credit would pass the wallet KYC balance cap', async () => {
    const phone = number('0012');
    const u = await seller(phone);
    // Tier 1's cap is 300,000 naira: 299,500 in the wallet leaves room for 500, and 1,000 of airtime would credit 800.
    await fundWallet(h, u.id, 299_500);
    const res = await ask(u, phone, 1000);
    expect(res.json().error).toMatchObject({ code: 'LIMIT_EXCEEDED' });
    expect(res.json().error.message).toMatch(/can take ₦500.00 more/);
    expect((await ask(u, phone, 600)).json().request.status).toBe('awaiting');
  });

  it('refuses a customer below KYC Tier 1', async () => {
    const phone = number('0009');
    const u = await user(h, { pin: PIN, phone });
    expect((await ask(u, phone, 1000)).json().error.code).toBe('KYC_TIER_REQUIRED');
  });

  it('is sent to its routing provider (C by default), whose signed webhook alone settles it; the floats list it under C', async () => {
    const phone = number('5555');
    const u = await seller(phone);
    const r = await request(u, phone, 1000);
    const stored = async () =>
      (await rows<{ provider: string }>(h.app.services.db, sql`SELECT provider FROM airtime_cash_requests WHERE id = ${r.id}`))[0];
    expect(await stored()).toEqual({ provider: 'c' });
    const requestId = await requestIdOf(r.id);
    const body = JSON.stringify({ request_id: requestId, status: 'received', amount_received: '1000.00' });
    const webhook = () =>
      h.app.inject({
        method: 'POST',
        url: AIRTIME_CASH_WEBHOOK_PATH,
        headers: {
          'content-type': 'application/json',
          'x-provider-signature': signAirtimeCashWebhook(h.app.services.config.vtu.providers.c.secret!, body),
        },
        payload: body,
      });
    // A request recorded as sent to another provider is not C's to confirm: its webhook is ignored.
    await h.app.services.db.execute(sql`UPDATE airtime_cash_requests SET provider = 'd' WHERE id = ${r.id}`);
    const other = await webhook();
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json()).toEqual({ ok: true, known: false });
    expect(await walletBalance(h, u.id)).toBe(0);
    await h.app.services.db.execute(sql`UPDATE airtime_cash_requests SET provider = 'c' WHERE id = ${r.id}`);
    expect((await webhook()).json()).toEqual({ ok: true, known: true });
    expect(await get(u, r.id)).toMatchObject({ status: 'credited', credited: 800 });
    expect(await walletBalance(h, u.id)).toBe(800);

    const admin = await signIn(h, 'admin@example.com');
    const floats = await call(h, 'GET', '/_serverFn/adminListProviderFloatsBearerAdmin', undefined, { token: admin.token });
    expect(floats.statusCode, floats.body).toBe(200);
    const services = (p: string) => floats.json().items.find((f: { provider: string }) => f.provider === p).services;
    expect(services('c')).toEqual(expect.arrayContaining(['airtime', 'electricity', 'cable', 'airtime_cash']));
    for (const p of ['a', 'b', 'd']) expect(services(p)).not.toContain('airtime_cash');
    await expectLedgerOk(h);
  });

  it('leaves the ledger balanced', async () => {
    await expectLedgerOk(h);
  });
});
