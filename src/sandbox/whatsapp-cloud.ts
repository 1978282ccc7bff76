import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Clock } from '../kernel/clock.js';
import { safeEqual } from '../lib/crypto.js';

/**
 * The sandbox's WhatsApp Cloud API (issue 46): the assistant's sender posts its messages here (WHATSAPP_API_URL's
 * sandbox default, PUBLIC_URL/api/sandbox/whatsapp), as to graph.facebook.com: POST /{phone-number-id}/messages with
 * the access token. The messages are kept in memory per number, for the chat emulator and the tests:
 * GET /api/sandbox/whatsapp/messages?to=<wa_id>&after=<seq>. Magic value: a number ending 0000 is undeliverable
 * (the Cloud API's error 131026), so a failed send can be tried.
 */
export const WHATSAPP_SIMULATOR_PATH = '/api/sandbox/whatsapp';
const KEEP_PER_NUMBER = 500;

export interface SentMessage {
  seq: number;
  to: string;
  type: string;
  body: Record<string, unknown>;
  at: string;
}

export function registerWhatsappCloud(app: FastifyInstance, services: { config: Config; clock: Clock }) {
  const { config, clock } = services;
  const sent = new Map<string, SentMessage[]>();
  let seq = 0;

  app.post(`${WHATSAPP_SIMULATOR_PATH}/:phoneId/messages`, async (req, reply) => {
    const auth = req.headers.authorization ?? '';
    if (!safeEqual(auth, `Bearer ${config.whatsapp.token}`))
      return reply.status(401).send({ error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } });
    if ((req.params as { phoneId: string }).phoneId !== config.whatsapp.phoneNumberId)
      return reply.status(400).send({ error: { message: 'Unsupported post request: unknown phone number id', code: 100 } });
    const body = (req.body ?? {}) as Record<string, unknown>;
    const to = typeof body.to === 'string' ? body.to : '';
    const type = typeof body.type === 'string' ? body.type : '';
    if (body.messaging_product !== 'whatsapp' || !/^\d{6,20}$/.test(to) || !['text', 'interactive', 'image'].includes(type) || !body[type])
      return reply.status(400).send({ error: { message: '(#100) Invalid parameter', code: 100 } });
    if (to.endsWith('0000')) return reply.status(400).send({ error: { message: 'Message undeliverable', code: 131026 } });
    const message: SentMessage = { seq: ++seq, to, type, body, at: clock.now().toISOString() };
    const list = sent.get(to) ?? [];
    list.push(message);
    sent.set(to, list.slice(-KEEP_PER_NUMBER));
    return reply.send({
      messaging_product: 'whatsapp',
      contacts: [{ input: to, wa_id: to }],
      messages: [{ id: `wamid.sandbox${message.seq}` }],
    });
  });

  app.get(`${WHATSAPP_SIMULATOR_PATH}/messages`, async (req, reply) => {
    const q = (req.query ?? {}) as Record<string, string | undefined>;
    const to = (q.to ?? '').replace(/^\+/, '');
    if (!/^\d{6,20}$/.test(to)) return reply.status(400).send({ error: 'to must be a WhatsApp number (wa_id), like 2348031234567' });
    const after = /^\d{1,12}$/.test(q.after ?? '') ? Number(q.after) : 0;
    return { messages: (sent.get(to) ?? []).filter((m) => m.seq > after) };
  });
}
