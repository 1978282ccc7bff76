import type { FastifyInstance } from 'fastify';
import { AIRTIME_CASH_PROVIDERS, airtimeCashWebhookPath } from '../../modules/vtu/kinds/airtime-cash/routing.js';
import type { AirtimeCashService } from '../../modules/vtu/kinds/airtime-cash/service.js';

/**
 * POST /api/public/vtu/airtime-cash/webhook/<provider> (one per provider with an airtime-to-cash adapter: c): that
 * provider says what arrived for an airtime-to-cash request sent to it. The body is taken as raw bytes and its
 * HMAC-SHA512 (x-provider-signature, with the provider's secret key) checked over exactly those bytes before anything
 * is parsed; only a signed `received` credits, once per request however often it comes.
 */
/** Provider C's (the sandbox's simulator posts here). */
export const AIRTIME_CASH_WEBHOOK_PATH = airtimeCashWebhookPath('c');
const BODY_LIMIT = 16 * 1024;

export async function registerAirtimeCashWebhook(app: FastifyInstance, services: { airtimeCash: AirtimeCashService }) {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, body, done) => done(null, body));
    for (const p of AIRTIME_CASH_PROVIDERS)
      scope.post(airtimeCashWebhookPath(p), { config: { operation: 'airtimeCashWebhook' } }, async (req, reply) => {
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const header = req.headers['x-provider-signature'];
        const out = await services.airtimeCash.receiveWebhook(p, raw, typeof header === 'string' ? header : undefined);
        return reply.status(200).send({ ok: true, known: out.known });
      });
  });
}
