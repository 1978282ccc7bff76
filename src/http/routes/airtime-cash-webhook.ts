import type { FastifyInstance } from 'fastify';
import type { AirtimeCashService } from '../../modules/vtu/kinds/airtime-cash/service.js';

/**
 * POST /api/public/vtu/airtime-cash/webhook/c: provider C says what arrived for an airtime-to-cash request. The body is
 * taken as raw bytes and its HMAC-SHA512 (x-provider-signature, with the provider's secret key) checked over exactly
 * those bytes before anything is parsed; only a signed `received` credits, once per request however often it comes.
 */
export const AIRTIME_CASH_WEBHOOK_PATH = '/api/public/vtu/airtime-cash/webhook/c';
const BODY_LIMIT = 16 * 1024;

export async function registerAirtimeCashWebhook(app: FastifyInstance, services: { airtimeCash: AirtimeCashService }) {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, body, done) => done(null, body));
    scope.post(AIRTIME_CASH_WEBHOOK_PATH, { config: { operation: 'airtimeCashWebhook' } }, async (req, reply) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const header = req.headers['x-provider-signature'];
      const out = await services.airtimeCash.receiveWebhook(raw, typeof header === 'string' ? header : undefined);
      return reply.status(200).send({ ok: true, known: out.known });
    });
  });
}
