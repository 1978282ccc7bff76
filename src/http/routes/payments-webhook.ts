import type { FastifyInstance } from 'fastify';
import { MAX_JSON_DEPTH, jsonDepthExceeds } from '../../lib/json-depth.js';
import { AppError } from '../../kernel/errors.js';
import type { Services } from '../../platform/services.js';

/**
 * POST /api/public/payments/webhook/processor (spec 4.11, 5.7, 6). Its own encapsulated plugin: the body is
 * taken as raw bytes (no JSON parser runs), the HMAC-SHA512 signature is checked over exactly those bytes in
 * constant time, and only then is the body parsed. The event is stored and its processing enqueued by one
 * statement; the answer is 200 at once, the credit happens in the job.
 */
export const WEBHOOK_PATH = '/api/public/payments/webhook/processor';
export const WEBHOOK_BODY_LIMIT = 512 * 1024;

export async function registerPaymentsWebhook(app: FastifyInstance, services: Pick<Services, 'processors' | 'payments'>) {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) => done(null, body));
    scope.post(WEBHOOK_PATH, { config: { operation: 'processorWebhook' } }, async (req, reply) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const header = req.headers['x-processor-signature'];
      const adapter = services.processors.default;
      if (!adapter.verifySignature(raw, typeof header === 'string' ? header : undefined)) {
        throw new AppError('UNAUTHENTICATED', 'Missing or invalid x-processor-signature');
      }
      let payload: unknown;
      try {
        payload = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new AppError('BAD_REQUEST', 'Body is not valid JSON');
      }
      if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
        throw new AppError('BAD_REQUEST', 'Body must be a JSON object');
      // A signed but absurdly nested body is refused before it is stored or walked.
      if (jsonDepthExceeds(payload, MAX_JSON_DEPTH))
        throw new AppError('BAD_REQUEST', `Body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`);
      await services.payments.storeEvent(adapter.id, raw, payload);
      return reply.status(200).send({ ok: true });
    });
  });
}
