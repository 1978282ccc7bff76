import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { chatInput, hubSignature, inboundWebhook } from '../../src/sandbox/whatsapp-chat.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const send = (payload: unknown) => h.app.inject({ method: 'POST', url: '/sandbox/whatsapp/send', payload: payload as object });

describe('the sandbox WhatsApp chat emulator', () => {
  it('serves the page with labelled fields and its script from our origin only', async () => {
    const page = await h.app.inject({ method: 'GET', url: '/sandbox/whatsapp' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).toContain('<label for="phone">Your WhatsApp number</label>');
    expect(page.body).toContain('<label for="message">Message</label>');
    expect(page.body).toContain('role="log"');
    expect(page.body).not.toMatch(/<script>/);
    const script = await h.app.inject({ method: 'GET', url: '/sandbox/whatsapp/chat.js' });
    expect(script.headers['content-type']).toContain('javascript');
    expect(script.body).not.toContain('innerHTML');
  });

  it('refuses what the Cloud API would never send, with a clear message', async () => {
    const bad = await send({ from: 'abc', text: 'hi' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/from must be a phone number/i);
    const neither = await send({ from: '08031230001' });
    expect(neither.statusCode).toBe(400);
    expect(neither.body).toMatch(/send either text or reply/i);
    const both = await send({ from: '08031230001', text: 'hi', reply: { type: 'list_reply', id: 'a', title: 'A' } });
    expect(both.statusCode).toBe(400);
    const kind = await send({ from: '08031230001', reply: { type: 'nfm_reply', id: 'a', title: 'A' } });
    expect(kind.statusCode).toBe(400);
  });

  it("builds the Cloud API's webhook JSON and Meta's signature over the raw body", () => {
    const settings = { phoneNumberId: 'sandbox-phone-id', businessNumber: '+2348000000046' };
    const text = inboundWebhook(chatInput.parse({ from: '0803 123 0001', text: 'LINK 123456' }), settings, new Date(1_700_000_000_000));
    const value = text.entry[0]!.changes[0]!.value;
    expect(text.object).toBe('whatsapp_business_account');
    expect(value.metadata).toEqual({ display_phone_number: '2348000000046', phone_number_id: 'sandbox-phone-id' });
    expect(value.contacts).toEqual([{ profile: { name: 'Sandbox customer' }, wa_id: '2348031230001' }]);
    expect(value.messages[0]).toMatchObject({
      from: '2348031230001',
      timestamp: '1700000000',
      type: 'text',
      text: { body: 'LINK 123456' },
    });
    expect(value.messages[0]!.id).toMatch(/^wamid\./);

    const tapped = inboundWebhook(
      chatInput.parse({ from: '+2348031230001', reply: { type: 'button_reply', id: 'buy:airtime', title: 'Airtime' } }),
      settings,
      new Date(),
    );
    expect(tapped.entry[0]!.changes[0]!.value.messages[0]).toMatchObject({
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: 'buy:airtime', title: 'Airtime' } },
    });

    const raw = JSON.stringify(text);
    expect(hubSignature(raw, 'sandbox-whatsapp-secret')).toBe(
      `sha256=${createHmac('sha256', 'sandbox-whatsapp-secret').update(raw).digest('hex')}`,
    );
    expect(hubSignature(`${raw} `, 'sandbox-whatsapp-secret')).not.toBe(hubSignature(raw, 'sandbox-whatsapp-secret'));
  });
});
