import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';
import type { SmsGateway } from '../../providers/sms.js';
import { recordSmsReport, REPORT_BODY_LIMIT, SMS_REPORTS_PATH } from '../../modules/notifications/sms.js';

/**
 * POST /api/public/sms/reports/<provider>: the gateway's delivery reports. Raw body (Termii signs the bytes with
 * HMAC-SHA512 in X-Termii-Signature; Africa's Talking's callback URL carries ?token=SMS_WEBHOOK_SECRET). Not
 * registered when no gateway or no SMS_WEBHOOK_SECRET is configured.
 */
export async function registerSmsReportRoute(
  app: FastifyInstance,
  services: { smsGateway: SmsGateway | null; config: Config; db: Db; clock: Clock },
) {
  const gateway = services.smsGateway;
  if (!gateway || !services.config.sms.webhookSecret) return;
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: REPORT_BODY_LIMIT }, (_req, body, done) => done(null, body));
    scope.post(`${SMS_REPORTS_PATH}/${gateway.id}`, { config: { operation: 'smsDeliveryReport' } }, async (req, reply) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const headers = req.headers as Record<string, string | undefined>;
      if (!gateway.verifyReport(raw, headers, req.query as Record<string, string | undefined>)) {
        throw new AppError('UNAUTHENTICATED', 'Missing or invalid delivery report signature');
      }
      const report = gateway.parseReport(raw, headers['content-type']);
      if (!report) throw new AppError('BAD_REQUEST', 'Not a delivery report: the message id and status are required');
      await recordSmsReport(services.db, services.clock, gateway.id, report);
      return reply.status(200).send({ ok: true });
    });
  });
}
