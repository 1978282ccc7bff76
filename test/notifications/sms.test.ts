import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { rows } from '../../src/db/client.js';
import { SECOND } from '../../src/kernel/clock.js';
import { OUTBOX_BACKOFF_MS } from '../../src/modules/notifications/outbox.js';
import { SMS_REPORTS_PATH } from '../../src/modules/notifications/sms.js';
import { internationalNumber, termiiSignature } from '../../src/providers/sms.js';
import { PRODUCTION } from '../helpers/production-env.js';
import { createHarness, lastCode, signIn, call, type Harness } from '../helpers/harness.js';

// The SMS gateways, driven through the sandbox's Termii and Africa's Talking simulators over the
// adapters' real requests: messages sent, delivery reports recorded, failures retried by the outbox.

type SmsRow = { provider: string; to_masked: string | null; status: string; detail: string | null };
const messages = (h: Harness) =>
  rows<SmsRow>(h.app.services.db, sql`SELECT provider, to_masked, status, detail FROM sms_messages ORDER BY created_at, message_id`);
const inbox = async (h: Harness, to: string) => (await h.app.inject({ url: `/sandbox/sms?to=${to}` })).json().items as { text: string }[];

for (const provider of ['termii', 'africastalking'] as const) {
  describe(`${provider} gateway`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await createHarness({ env: { SMS_PROVIDER: provider } });
    });
    afterAll(async () => h.close());

    it('sends a phone verification code through the gateway and records its delivery report', async () => {
      const u = await signIn(h);
      const res = await call(h, 'POST', '/_serverFn/sendPhoneOtpPublicAuth', { phone: '08031112233' }, { token: u.token });
      expect(res.statusCode).toBe(200);
      expect(await lastCode(h, '08031112233', 'sms')).toMatch(/^\d{6}$/);
      expect(await messages(h)).toEqual([
        { provider, to_masked: '0803***2233', status: 'delivered', detail: provider === 'termii' ? 'Delivered' : 'Success' },
      ]);
    });

    it('a report of a failed delivery is recorded as failed, with the gateway’s reason', async () => {
      const { outbox, db } = h.app.services;
      await db.transaction((tx) => outbox.sendSms(tx, { to: '08031119999', text: 'Your airtime was delivered' }));
      await h.app.services.jobs.drain();
      expect(await inbox(h, '08031119999')).toHaveLength(1);
      const failed = (await messages(h)).find((m) => m.to_masked === '0803***9999');
      expect(failed).toMatchObject({
        status: 'failed',
        detail: provider === 'termii' ? 'DND Active on Phone Number' : 'Rejected: DeliveryFailure',
      });
    });

    it('a gateway outage is retried by the outbox until the message goes', async () => {
      const { outbox, db, jobs } = h.app.services;
      await db.transaction((tx) => outbox.sendSms(tx, { to: '08031110000', text: 'Your code' }));
      await jobs.drain();
      const job = await rows<{ attempts: number; status: string; last_error: string }>(
        db,
        sql`SELECT attempts, status, last_error FROM jobs WHERE queue = 'outbox.sms' AND payload->>'to' = '08031110000'`,
      );
      expect(job[0]).toMatchObject({ attempts: 1 });
      expect(job[0].status).not.toBe('done');
      expect(job[0].last_error).toMatch(/503/);
      h.clock.advance(OUTBOX_BACKOFF_MS + SECOND);
      await jobs.drain();
      const again = await rows<{ attempts: number }>(
        db,
        sql`SELECT attempts FROM jobs WHERE queue = 'outbox.sms' AND payload->>'to' = '08031110000'`,
      );
      expect(again[0].attempts).toBe(2);
    });
  });
}

describe('delivery report webhook', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => h.close());

  const post = (body: string, headers: Record<string, string>) =>
    h.app.inject({ method: 'POST', url: `${SMS_REPORTS_PATH}/termii`, headers, payload: body });

  it('refuses an unsigned or wrongly signed report', async () => {
    const body = JSON.stringify({ message_id: 'forged-1', status: 'Delivered' });
    expect((await post(body, { 'content-type': 'application/json' })).statusCode).toBe(401);
    expect(
      (await post(body, { 'content-type': 'application/json', 'x-termii-signature': termiiSignature('wrong-secret', body) })).statusCode,
    ).toBe(401);
    expect(await rows(h.app.services.db, sql`SELECT 1 FROM sms_messages WHERE message_id = 'forged-1'`)).toHaveLength(0);
  });

  it('a late "sent" does not replace a final status; junk is 400', async () => {
    const secret = h.config.sms.webhookSecret!;
    const send = (status: string) => {
      const body = JSON.stringify({ message_id: 'm-order', status });
      return post(body, { 'content-type': 'application/json', 'x-termii-signature': termiiSignature(secret, body) });
    };
    expect((await send('Delivered')).statusCode).toBe(200);
    expect((await send('Sent')).statusCode).toBe(200);
    expect(await rows(h.app.services.db, sql`SELECT status FROM sms_messages WHERE message_id = 'm-order'`)).toEqual([
      { status: 'delivered' },
    ]);
    const junk = '{"nothing":true}';
    expect((await post(junk, { 'content-type': 'application/json', 'x-termii-signature': termiiSignature(secret, junk) })).statusCode).toBe(
      400,
    );
  });
});

describe('SMS configuration', () => {
  it('numbers go out in international form', () => {
    expect(internationalNumber('08031234567')).toBe('2348031234567');
    expect(internationalNumber('+2348031234567')).toBe('2348031234567');
  });

  it('production refuses to start without a gateway, naming the settings', () => {
    const { SMS_PROVIDER: _p, SMS_API_KEY: _k, ...withoutSms } = PRODUCTION;
    expect(() => loadConfig({ ...withoutSms, DATABASE_URL: 'postgres://db/x' })).toThrow(/SMS_PROVIDER[\s\S]*SMS_API_KEY/);
    expect(() => loadConfig({ ...PRODUCTION, DATABASE_URL: 'postgres://db/x', SMS_PROVIDER: 'africastalking' })).toThrow(/SMS_USERNAME/);
    const c = loadConfig({ ...PRODUCTION, DATABASE_URL: 'postgres://db/x' });
    expect(c.sms).toMatchObject({ provider: 'termii', channel: 'dnd', senderId: 'VTUWallet' });
    expect(() => loadConfig({ SMS_SENDER_ID: 'far-too-long-sender' })).toThrow(/SMS_SENDER_ID/);
  });
});
