import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../kernel/errors.js';
import { MAX_JSON_DEPTH, jsonDepthExceeds } from '../../lib/json-depth.js';
import { safeEqual } from '../../lib/crypto.js';
import { messagesOf, RECEIPT_IMAGE_PATH, signatureValid, WHATSAPP_WEBHOOK_PATH, type WhatsappService } from '../../modules/whatsapp/api.js';

const BODY_LIMIT = 256 * 1024;

/**
 * The WhatsApp Cloud API's webhook (issue 46). GET: the subscription handshake (hub.verify_token must equal
 * WHATSAPP_VERIFY_TOKEN; the answer is hub.challenge). POST: the raw body's X-Hub-Signature-256 is checked in constant
 * time before anything is parsed (401 otherwise); the messages are taken, each message id once, and the answer is
 * 200. GET {RECEIPT_IMAGE_PATH}/<signed name>.png: a purchase's receipt image, for the image messages' links.
 */
export async function registerWhatsappRoute(app: FastifyInstance, services: { whatsapp: WhatsappService; config: Config }) {
  const { whatsapp, config } = services;
  app.get(WHATSAPP_WEBHOOK_PATH, { config: { operation: 'whatsappWebhookVerify' } }, async (req, reply) => {
    const q = (req.query ?? {}) as Record<string, unknown>;
    const token = typeof q['hub.verify_token'] === 'string' ? q['hub.verify_token'] : '';
    const expected = config.whatsapp.verifyToken;
    if (q['hub.mode'] !== 'subscribe' || !expected || !safeEqual(token, expected) || typeof q['hub.challenge'] !== 'string')
      throw new AppError('FORBIDDEN', 'The verify token does not match');
    return reply.type('text/plain; charset=utf-8').send(q['hub.challenge']);
  });
  app.get(`${RECEIPT_IMAGE_PATH}/:file`, { config: { operation: 'whatsappReceiptImage' } }, async (req, reply) => {
    const png = await whatsapp.receiptImage(String((req.params as { file?: string }).file ?? ''));
    if (!png) throw new AppError('NOT_FOUND', 'No such receipt');
    return reply.type('image/png').header('cache-control', 'private, max-age=3600').send(png);
  });
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, body, done) => done(null, body));
    scope.post(WHATSAPP_WEBHOOK_PATH, { config: { operation: 'whatsappWebhook' } }, async (req, reply) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const header = req.headers['x-hub-signature-256'];
      if (!signatureValid(config.whatsapp.appSecret, raw, typeof header === 'string' ? header : undefined))
        throw new AppError('UNAUTHENTICATED', 'Missing or invalid X-Hub-Signature-256');
      let payload: unknown;
      try {
        payload = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new AppError('BAD_REQUEST', 'Body is not valid JSON');
      }
      if (jsonDepthExceeds(payload, MAX_JSON_DEPTH))
        throw new AppError('BAD_REQUEST', `Body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`);
      const messages = messagesOf(payload);
      if (!messages) throw new AppError('BAD_REQUEST', 'Body is not a WhatsApp Business Account webhook');
      await whatsapp.handle(messages);
      return reply.status(200).send({ ok: true });
    });
  });
}
