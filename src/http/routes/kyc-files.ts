import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../../kernel/errors.js';
import type { Services } from '../../platform/services.js';
import { statusOf } from '../../http/errors.js';

/**
 * GET /files/kyc/<path>?expires=&sig= serves a private KYC upload behind a signed URL (docs/design.md §9). Not a spec 4.11
 * endpoint, so it is not listed in public-endpoints.ts. Every answer, errors included, is uncacheable.
 */
export function registerKycFileRoute(app: FastifyInstance, services: Pick<Services, 'kyc'>) {
  const secure = (reply: FastifyReply) =>
    reply
      .header('cache-control', 'private, no-store')
      .header('pragma', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('referrer-policy', 'no-referrer');

  app.get<{ Params: { path: string }; Querystring: Record<string, unknown> }>('/files/kyc/:path', async (req, reply) => {
    secure(reply);
    try {
      const { object, contentType } = await services.kyc.openSignedFile(req.params.path, req.query.expires, req.query.sig);
      if (object.kind === 'redirect') return reply.redirect(object.url, 302);
      return reply
        .type(contentType)
        .header('content-disposition', `${contentType === 'application/pdf' ? 'attachment' : 'inline'}; filename="${req.params.path}"`)
        .send(object.bytes);
    } catch (err) {
      if (err instanceof AppError)
        return reply.status(statusOf(err.code)).send({ ok: false, error: { code: err.code, message: err.message } });
      throw err;
    }
  });
}
