import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../../kernel/errors.js';
import type { Services } from '../../platform/services.js';
import { statusOf } from '../../http/errors.js';

/**
 * GET /files/exports/<jobId>.csv?expires=&by=&session=&sig= downloads an operator's CSV export behind a 5-minute
 * signed URL made for one operator's session (adminGetJob signs it, as KYC files: docs/design.md §9), while that
 * operator still holds a role that exports. The file is streamed from storage (or the client is sent
 * to a presigned S3 GET), never read whole. Not a spec 4.11 endpoint. Every answer, errors included, is uncacheable.
 */
export function registerExportFileRoute(app: FastifyInstance, services: Pick<Services, 'operatorConsole'>) {
  const secure = (reply: FastifyReply) =>
    reply
      .header('cache-control', 'private, no-store')
      .header('pragma', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('referrer-policy', 'no-referrer');

  app.get<{ Params: { file: string }; Querystring: Record<string, unknown> }>('/files/exports/:file', async (req, reply) => {
    secure(reply);
    try {
      const m = /^(opj_[0-9A-Za-z]{1,40})\.csv$/.exec(req.params.file);
      if (!m?.[1]) throw new AppError('NOT_FOUND', 'Export not found');
      const { file, fileName } = await services.operatorConsole.jobs.openSignedExport(m[1], req.query);
      if (file.kind === 'redirect') return reply.redirect(file.url, 302);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-length', String(file.size))
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(file.stream);
    } catch (err) {
      if (err instanceof AppError)
        return reply.status(statusOf(err.code)).send({ ok: false, error: { code: err.code, message: err.message } });
      throw err;
    }
  });
}
