import { notify } from '../helpers/notices.js';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, type Harness, type TestUser } from '../helpers/harness.js';
import { buyer, PIN } from '../helpers/factories.js';
import { VTU_ENV } from '../vtu/helpers.js';
import { uuid } from '../../src/kernel/ids.js';
import type { PushSender } from '../../src/providers/push.js';

// Issue 29: push, e-mail and SMS are written in the customer's language (settings' language), from the
// notification's kind and params; the inbox row keeps the English text for API clients.

/** The push service: accepts every message and keeps its (unencrypted) payload, like the sandbox mailbox keeps mail. */
const pushed: { endpoint: string; payload: string }[] = [];
const capturingPush: PushSender = {
  publicKey: 'BAAA',
  async send(target, payload) {
    pushed.push({ endpoint: target.endpoint, payload });
    return { status: 'delivered', httpStatus: 201 };
  },
};

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: VTU_ENV, overrides: { push: capturingPush } });
}, 180_000);
afterAll(async () => h?.close());

const mailbox = async (to: string) =>
  (await h.app.inject({ url: `/sandbox/mailbox?to=${encodeURIComponent(to)}` })).json().items as { subject: string; text: string }[];
const smsTo = async (to: string) => (await h.app.inject({ url: `/sandbox/sms?to=${to}` })).json().items as { text: string }[];

/** A buyer with a verified phone, SMS notifications on, a push subscription on this session, and `language`. */
async function reader(language: string | null, phone: string): Promise<TestUser & { endpoint: string }> {
  const u = await buyer(h, 5_000);
  const endpoint = `https://push.example.com/${randomBytes(8).toString('hex')}`;
  await h.app.services.db.execute(sql`UPDATE users SET phone = ${phone}, phone_verified_at = now() WHERE id = ${u.id}`);
  await h.app.services.db.execute(sql`INSERT INTO push_subscriptions (id, user_id, session_id, endpoint, p256dh, auth, created_at)
    VALUES (${uuid()}, ${u.id}, ${u.sessionId}, ${endpoint}, 'k', 'a', now())`);
  h.app.services.identity.forgetUser(u.id);
  const prefs = await call(
    h,
    'POST',
    '/_serverFn/updatePreferencesBearerSettings',
    { notifications: { sms: true }, ...(language ? { language } : {}) },
    { token: u.token },
  );
  expect(prefs.statusCode, prefs.body).toBe(200);
  return { ...u, endpoint };
}

const buyAirtime = (u: TestUser, phone: string) =>
  call(h, 'POST', '/_serverFn/buyAirtimeBearerVTU', { network: 'mtn', phone, amount: 150, pin: PIN }, { token: u.token });

/** What each channel carried for `u` after the jobs ran: the newest e-mail, SMS and push of the notification. */
async function delivered(u: TestUser & { endpoint: string }, phone: string, subject: RegExp) {
  await h.app.services.jobs.drain();
  const mail = (await mailbox(u.email)).find((m) => subject.test(m.subject));
  const sms = (await smsTo(phone)).map((s) => s.text);
  const push = pushed.filter((p) => p.endpoint === u.endpoint).map((p) => JSON.parse(p.payload) as { title: string; body: string });
  return { mail, sms, push };
}

describe('notifications in the customer language', () => {
  it('a Yoruba reader gets the delivered purchase in Yoruba by e-mail, SMS and push; the inbox keeps English + kind', async () => {
    const phone = '08035550101';
    const u = await reader('yo', phone);
    const tx = await buyAirtime(u, '08031230001');
    expect(tx.statusCode, tx.body).toBe(200);
    const { mail, sms, push } = await delivered(u, phone, /ránṣẹ́/);
    const body = 'Káàdì ìpè (airtime) ₦150.00 rẹ fún 08031230001 ti dé.';
    expect(mail?.subject).toBe('A ti fi Káàdì ìpè (airtime) ránṣẹ́');
    expect(mail?.text).toContain(body);
    expect(mail?.text).toContain('O lè rí gbogbo ìfitónilétí rẹ nínú áàpù.');
    expect(mail?.text).not.toContain('was delivered');
    expect(sms.some((s) => s.includes(body))).toBe(true);
    expect(push.find((p) => p.body === body)?.title).toBe('A ti fi Káàdì ìpè (airtime) ránṣẹ́');
    const inbox = (await call(h, 'GET', '/_serverFn/listNotificationsBearerNotifications', undefined, { token: u.token })).json();
    const note = inbox.items.find((n: any) => n.kind === 'purchase_delivered');
    expect(note).toMatchObject({ title: 'Airtime delivered', params: { service: 'airtime', amount: 150, recipient: '08031230001' } });
  });

  it('an English reader (the default) gets English, the same facts', async () => {
    const phone = '08035550102';
    const u = await reader(null, phone);
    expect((await buyAirtime(u, '08031230002')).statusCode).toBe(200);
    const { mail, sms, push } = await delivered(u, phone, /delivered/);
    expect(mail?.subject).toBe('Airtime delivered');
    expect(mail?.text).toContain('Your ₦150.00 Airtime for 08031230002 was delivered.');
    expect(mail?.text).toContain('To stop these e-mails, turn off e-mail notifications in Settings.');
    expect(sms.some((s) => s.includes('08031230002 was delivered'))).toBe(true);
    expect(push.some((p) => p.title === 'Airtime delivered')).toBe(true);
  });

  it('a refund in Hausa; a notice without a wording (an old general one) and an Igbo reader fall back to English', async () => {
    const phone = '08035550103';
    const u = await reader('ha', phone);
    expect((await buyAirtime(u, '08031231111')).json().transaction.status).toBe('failed');
    const refund = await delivered(u, phone, /an mayar da kuɗi/);
    expect(refund.mail?.subject).toBe('Saye bai yi nasara ba: an mayar da kuɗi');
    expect(refund.mail?.text).toContain('₦150.00 ya dawo walat ɗinka.');

    await h.app.services.db.transaction((tx) =>
      notify(h, tx, [{ userId: u.id, kind: 'general', title: 'Plain notice', body: 'Plain English body.' }]),
    );
    const plain = await delivered(u, phone, /Plain notice/);
    expect(plain.mail?.text).toContain('Plain English body.');
    // The footer is still the reader's.
    expect(plain.mail?.text).toContain('Kuna iya ganin duk sanarwarku a cikin manhajar.');

    const igPhone = '08035550104';
    const ig = await reader('ig', igPhone);
    expect((await buyAirtime(ig, '08031230004')).statusCode).toBe(200);
    expect((await delivered(ig, igPhone, /delivered/)).mail?.subject).toBe('Airtime delivered');
  });
});
