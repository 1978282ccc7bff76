import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { AppError } from '../../kernel/errors.js';
import { allowsGateway, USSD_CALLBACK_PATH, wire, type UssdService } from '../../modules/ussd/api.js';

/** Africa's Talking's USSD callback form (networkCode and any other field are ignored). */
const callbackForm = z.object({
  sessionId: z.string().min(1).max(200),
  serviceCode: z.string().max(40).default(''),
  phoneNumber: z.string().min(5).max(20),
  text: z.string().max(400).default(''),
});

/**
 * POST /api/public/ussd/africastalking: the USSD gateway's callback (issue 46), a form post per answer, answered in
 * plain text `CON ...` or `END ...`. Only the gateway's addresses (USSD_ALLOWED_IPS) may call it; the module limits
 * each calling number.
 */
export async function registerUssdRoute(app: FastifyInstance, services: { ussd: UssdService; config: Config }) {
  const allowed = allowsGateway(services.config.ussd.allowedIps);
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 2048 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    scope.post(USSD_CALLBACK_PATH, { bodyLimit: 2048, config: { operation: 'ussdCallback' } }, async (req, reply) => {
      if (!allowed(req.ip)) throw new AppError('FORBIDDEN', 'This address may not call the USSD callback');
      const form = callbackForm.safeParse(req.body ?? {});
      if (!form.success) throw new AppError('VALIDATION_FAILED', 'sessionId, phoneNumber and text are required');
      const screen = await services.ussd.handle(form.data);
      return reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(wire(screen));
    });
  });
}
