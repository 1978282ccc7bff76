import { createHmac, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { WHATSAPP_WEBHOOK_PATH } from '../../src/modules/whatsapp/api.js';
import { call, type Harness, type TestUser } from '../helpers/harness.js';

export const SECRET = 'sandbox-whatsapp-secret';

export const signatureOf = (raw: string, secret = SECRET) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

/** The Cloud API's webhook body for one inbound message. */
export function webhookBody(from: string, id: string, content: { text: string } | { reply: string; kind?: 'list_reply' | 'button_reply' }) {
  const message =
    'text' in content
      ? { from, id, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: content.text } }
      : {
          from,
          id,
          timestamp: String(Math.floor(Date.now() / 1000)),
          type: 'interactive',
          interactive: { type: content.kind ?? 'list_reply', [content.kind ?? 'list_reply']: { id: content.reply, title: content.reply } },
        };
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '2348000000046', phone_number_id: 'sandbox-phone-id' },
              contacts: [{ profile: { name: 'Ada' }, wa_id: from }],
              messages: [message],
            },
          },
        ],
      },
    ],
  };
}

/** Posts a raw body signed as the Cloud API signs it (or with the given signature header). */
export function postWebhook(h: Harness, raw: string, signature: string | null = signatureOf(raw)) {
  return h.app.inject({
    method: 'POST',
    url: WHATSAPP_WEBHOOK_PATH,
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'x-hub-signature-256': signature }) },
    payload: raw,
  });
}

export interface Sent {
  seq: number;
  to: string;
  type: string;
  body: Record<string, any>;
}

/** What a message says: its text, the list's or buttons' body with their rows or titles. */
export function said(m: Sent): string {
  if (m.type === 'text') return m.body.text.body;
  if (m.type === 'image') return `[image ${m.body.image.link}] ${m.body.image.caption}`;
  const i = m.body.interactive;
  const options =
    i.type === 'list'
      ? i.action.sections.flatMap((s: any) => s.rows.map((r: any) => `${r.id}=${r.title}${r.description ? ` (${r.description})` : ''}`))
      : i.action.buttons.map((b: any) => `${b.reply.id}=${b.reply.title}`);
  return `${i.body.text}\n${options.join('\n')}`;
}

/**
 * A WhatsApp chat with the assistant from `phone` (0803...): each send posts a signed webhook with a new message id
 * and returns the messages the assistant sent back (read from the sandbox Cloud API's record).
 */
export function chat(h: Harness, phone: string) {
  const waId = `234${phone.slice(1)}`;
  let seen = 0;
  let last = '';
  const replies = async (): Promise<Sent[]> => {
    const res = await h.app.inject({ method: 'GET', url: `/api/sandbox/whatsapp/messages?to=${waId}&after=${seen}` });
    const list = res.json().messages as Sent[];
    if (list.length) seen = list[list.length - 1]!.seq;
    return list;
  };
  const send = async (content: Parameters<typeof webhookBody>[2], id = `wamid.${randomUUID()}`) => {
    last = JSON.stringify(webhookBody(waId, id, content));
    const res = await postWebhook(h, last);
    if (res.statusCode !== 200) throw new Error(`webhook ${res.statusCode}: ${res.body}`);
    return replies();
  };
  return {
    waId,
    text: (text: string) => send({ text }),
    tap: (reply: string, kind: 'list_reply' | 'button_reply' = 'list_reply') => send({ reply, kind }),
    /** The same webhook delivered again (the Cloud API's retry). */
    again: async () => {
      const res = await postWebhook(h, last);
      if (res.statusCode !== 200) throw new Error(`webhook ${res.statusCode}: ${res.body}`);
      return replies();
    },
    replies,
  };
}

export const texts = (list: Sent[]) => list.map(said).join('\n---\n');

/** The token of the PIN link in the messages. */
export function pinToken(list: Sent[]): string {
  const m = /\/whatsapp\/pin\/([A-Za-z0-9_-]{32})/.exec(texts(list));
  if (!m) throw new Error(`no PIN link in ${texts(list)}`);
  return m[1]!;
}

export async function linkNumber(h: Harness, u: TestUser, phone: string) {
  const res = await call(h, 'POST', '/_serverFn/createWhatsappLinkCodeBearerWhatsapp', {}, { token: u.token });
  if (res.statusCode !== 200) throw new Error(`createWhatsappLinkCode: ${res.body}`);
  const c = chat(h, phone);
  const out = await c.text(`LINK ${res.json().code}`);
  return { chat: c, out };
}

/**
 * The PIN page's calls, each from its own client address: the public operations' budget is per address (20 a minute),
 * and one test file makes more calls than one customer would.
 */
const someAddress = () => `10.46.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

export const confirmPin = (h: Harness, token: string, pin: string) =>
  h.app.inject({
    method: 'POST',
    url: '/_serverFn/confirmWhatsappPinPublicWhatsapp',
    payload: { data: { token, pin } },
    remoteAddress: someAddress(),
  });

export const pinRequest = (h: Harness, token: string) =>
  h.app.inject({ method: 'GET', url: `/_serverFn/getWhatsappPinRequestPublicWhatsapp?token=${token}`, remoteAddress: someAddress() });

export async function whatsappPurchases(h: Harness, userId: string) {
  return rows<{ id: string; service: string; status: string; channel: string; amount: string }>(
    h.app.services.db,
    sql`SELECT id::text AS id, service, status, channel, amount::text AS amount FROM vtu_transactions WHERE user_id = ${userId}
        ORDER BY created_at`,
  );
}

/** Makes the number's link older than the 30 days of the recycled-number rule. */
export async function ageLink(h: Harness, phone: string, days = 40) {
  await h.app.services.db.execute(
    sql`UPDATE whatsapp_links SET linked_at = ${new Date(h.clock.now().getTime() - days * 86_400_000)} WHERE phone = ${phone}`,
  );
}
