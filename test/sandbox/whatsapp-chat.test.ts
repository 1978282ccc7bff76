import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, expectLedgerOk, type Harness } from '../helpers/harness.js';
import { caller } from '../ussd/helpers.js';
import { VTU_ENV } from '../vtu/helpers.js';
import { chatInput, hubSignature, inboundWebhook } from '../../src/sandbox/whatsapp-chat.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: VTU_ENV });
});
afterAll(async () => {
  await expectLedgerOk(h);
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

  it('drives the real webhook: the code from the app links the number, a tapped row is answered in the simulator', async () => {
    const u = await caller(h, '08031230046', { naira: 5_000 });
    const code = (await call(h, 'POST', '/_serverFn/createWhatsappLinkCodeBearerWhatsapp', {}, { token: u.token })).json().code as string;
    const linked = await send({ from: '08031230046', name: 'Ada', text: `LINK ${code}` });
    expect(linked.statusCode).toBe(200);
    expect(linked.json()).toMatchObject({ ok: true, status: 200, messageId: expect.stringMatching(/^wamid\./) });
    const replies = async (after: number) =>
      (await h.app.inject({ method: 'GET', url: `/api/sandbox/whatsapp/messages?to=2348031230046&after=${after}` })).json().messages as {
        seq: number;
        type: string;
        body: Record<string, any>;
      }[];
    const first = await replies(0);
    expect(JSON.stringify(first)).toContain('now linked to your wallet');
    const menu = first.find((m) => m.type === 'interactive')!;
    expect(menu.body.interactive.type).toBe('list');
    const balance = menu.body.interactive.action.sections[0].rows.find((r: { id: string }) => r.id === 'm:balance');
    const tapped = await send({ from: '2348031230046', reply: { type: 'list_reply', id: balance.id, title: balance.title } });
    expect(tapped.statusCode).toBe(200);
    // A number linked today may be a recycled one: the balance waits for the PIN on its page.
    const after = await replies(first[first.length - 1]!.seq);
    expect(JSON.stringify(after)).toMatch(/\/whatsapp\/pin\/[A-Za-z0-9_-]{32}/);
    // The same message id is never sent twice: each post is a new message.
    expect(tapped.json().messageId).not.toBe(linked.json().messageId);
  });
});
