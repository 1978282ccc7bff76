import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { WhatsappConfig } from '../config-whatsapp.js';
import { AppError, parseInput } from '../kernel/errors.js';
import { WHATSAPP_WEBHOOK_PATH } from '../modules/whatsapp/api.js';
import type { Services } from '../platform/services.js';
import { WHATSAPP_SIMULATOR_PATH } from './whatsapp-cloud.js';
import { CHAT_CSP, CHAT_SCRIPT, CHAT_SCRIPT_PATH, chatPage } from './whatsapp-chat-page.js';

/**
 * The WhatsApp chat emulator (issue 46): a page at /sandbox/whatsapp where a number chats with the service. The page
 * posts what the person typed or tapped to /sandbox/whatsapp/send; this route builds the Cloud API's webhook JSON
 * for it, signs the raw body as Meta does (X-Hub-Signature-256, HMAC-SHA256 with the app secret) and posts it to the
 * real webhook through the app's one transport. The secret never reaches the browser. The replies are what the
 * service sent to the Cloud API simulator, which the page polls (/api/sandbox/whatsapp/messages).
 */
export const WHATSAPP_CHAT_PATH = '/sandbox/whatsapp';
const SEND_PATH = '/sandbox/whatsapp/send';
const MESSAGES_PATH = `${WHATSAPP_SIMULATOR_PATH}/messages`;

type ChatServices = Pick<Services, 'upstream' | 'config'>;

const waId = z
  .string()
  .trim()
  .transform((s) => s.replace(/[\s()+-]/g, ''))
  .transform((s) => (/^0\d{10}$/.test(s) ? `234${s.slice(1)}` : s))
  .pipe(z.string().regex(/^\d{8,15}$/, 'from must be a phone number (080..., +234... or 234...)'));

export const chatInput = z
  .object({
    from: waId,
    name: z.string().trim().min(1).max(60).default('Sandbox customer'),
    text: z.string().trim().min(1, 'text must not be empty').max(4096).optional(),
    reply: z
      .object({
        type: z.enum(['list_reply', 'button_reply']),
        id: z.string().min(1).max(256),
        title: z.string().min(1).max(72),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((v) => (v.text === undefined) !== (v.reply === undefined), { message: 'send either text or reply', path: ['text'] });
export type ChatInput = z.output<typeof chatInput>;

/** One inbound message as the Cloud API's webhook carries it (a text, or the reply to a list or button message). */
export function inboundWebhook(input: ChatInput, s: Pick<WhatsappConfig, 'phoneNumberId' | 'businessNumber'>, now: Date) {
  const message = {
    from: input.from,
    id: `wamid.sandbox_${randomBytes(12).toString('hex')}`,
    timestamp: String(Math.floor(now.getTime() / 1000)),
    ...(input.reply
      ? {
          type: 'interactive' as const,
          interactive: { type: input.reply.type, [input.reply.type]: { id: input.reply.id, title: input.reply.title } },
        }
      : { type: 'text' as const, text: { body: input.text ?? '' } }),
  };
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'sandbox-waba',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: s.businessNumber.replace(/^\+/, ''), phone_number_id: s.phoneNumberId },
              contacts: [{ profile: { name: input.name }, wa_id: input.from }],
              messages: [message],
            },
          },
        ],
      },
    ],
  };
}

/** Meta's signature: "sha256=" and the hex HMAC-SHA256 of the raw body with the app secret. */
export const hubSignature = (rawBody: string, appSecret: string) =>
  `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;

async function deliver(services: ChatServices, input: ChatInput) {
  const s = services.config.whatsapp;
  // The sandbox always has the app secret (config-whatsapp.ts); without one the webhook refuses every post anyway.
  if (s.appSecret === null) throw new AppError('CONFLICT', 'WHATSAPP_APP_SECRET is not set: the webhook refuses every post');
  const body = inboundWebhook(input, s, new Date());
  const raw = JSON.stringify(body);
  const res = await services.upstream.send(`${services.config.publicUrl}${WHATSAPP_WEBHOOK_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(raw, s.appSecret) },
    body: raw,
    timeoutMs: 20_000,
  });
  return { status: res.status, messageId: body.entry[0]!.changes[0]!.value.messages[0]!.id };
}

export async function registerWhatsappChat(app: FastifyInstance, services: ChatServices) {
  app.get(WHATSAPP_CHAT_PATH, async (_req, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', CHAT_CSP)
      .send(chatPage(SEND_PATH, MESSAGES_PATH)),
  );
  app.get(CHAT_SCRIPT_PATH, async (_req, reply) => reply.type('text/javascript; charset=utf-8').send(CHAT_SCRIPT));
  app.post(SEND_PATH, async (req, reply) => {
    const sent = await deliver(services, parseInput(chatInput, req.body));
    // The webhook's own answer is passed on, so a refused signature or a failure is seen on the page.
    if (sent.status !== 200)
      return reply
        .status(502)
        .send({ ok: false, error: { code: 'UPSTREAM_ERROR', message: `The webhook answered ${sent.status}` }, ...sent });
    return { ok: true, ...sent };
  });
}
