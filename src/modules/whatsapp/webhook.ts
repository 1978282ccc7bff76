import { z } from 'zod';
import { hmac, safeEqual } from '../../lib/crypto.js';
import type { Inbound } from './deps.js';

/**
 * The Cloud API's webhook (docs/decisions.md, "WhatsApp"): every post is signed, `X-Hub-Signature-256: sha256=<hex
 * HMAC-SHA256 of the raw body under the app secret>`, compared in constant time before the body is parsed. Its
 * messages (text, a list row or a button tapped) are read; statuses and other fields are acknowledged and ignored.
 */
export function signatureValid(appSecret: string | null, raw: Buffer | string, header: string | undefined): boolean {
  if (!appSecret || !header || !header.startsWith('sha256=')) return false;
  const expected = `sha256=${hmac(appSecret, typeof raw === 'string' ? raw : raw.toString('utf8'))}`;
  return safeEqual(header.toLowerCase(), expected);
}

const reply = z.object({ id: z.string().min(1).max(200), title: z.string().max(200).optional() });
const message = z.object({
  from: z.string().regex(/^\d{6,20}$/),
  id: z.string().min(1).max(200),
  timestamp: z.string().optional(),
  type: z.string(),
  text: z.object({ body: z.string().max(4096) }).optional(),
  interactive: z.object({ type: z.string(), list_reply: reply.optional(), button_reply: reply.optional() }).optional(),
});
const payload = z.object({
  object: z.literal('whatsapp_business_account'),
  entry: z
    .array(
      z.object({
        id: z.string().optional(),
        changes: z.array(
          z.object({
            field: z.string(),
            value: z.object({ messages: z.array(z.unknown()).max(100).optional() }).passthrough(),
          }),
        ),
      }),
    )
    .max(100),
});

/** The messages a webhook body carries, or null when it is not the Cloud API's webhook JSON. */
export function messagesOf(body: unknown): Inbound[] | null {
  const p = payload.safeParse(body);
  if (!p.success) return null;
  const out: Inbound[] = [];
  for (const change of p.data.entry.flatMap((e) => e.changes)) {
    if (change.field !== 'messages') continue;
    for (const raw of change.value.messages ?? []) {
      const m = message.safeParse(raw);
      if (!m.success) continue;
      const picked = m.data.interactive?.list_reply ?? m.data.interactive?.button_reply;
      if (m.data.type === 'text' && m.data.text) out.push({ id: m.data.id, from: m.data.from, text: m.data.text.body });
      else if (m.data.type === 'interactive' && picked) out.push({ id: m.data.id, from: m.data.from, reply: picked.id });
      else out.push({ id: m.data.id, from: m.data.from, text: '' });
    }
  }
  return out;
}
