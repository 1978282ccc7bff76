import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../kernel/errors.js';
import type { Services } from '../../platform/services.js';

export const REPORT_ISSUE_PATH = '/api/public/report-issue';
/** Large enough for a minified stack trace, small enough that the endpoint cannot be used to store junk. */
export const REPORT_ISSUE_BODY_LIMIT = 16 * 1024;

const optionalText = (name: string, max: number) =>
  z
    .string({ error: `${name} must be a string` })
    .max(max, `${name} must be at most ${max} characters`)
    .transform((s) => s.trim())
    .optional()
    .transform((s) => (s ? s : undefined));

/** Decision (docs/decisions.md): plain JSON; the `{data}` envelope is accepted too; unknown fields are refused. */
export const reportIssueBody = z
  .object({
    message: z
      .string({ error: 'message is required' })
      .trim()
      .min(1, 'message must not be empty')
      .max(2000, 'message must be at most 2000 characters'),
    stack: optionalText('stack', 8000),
    url: optionalText('url', 2048),
    userAgent: optionalText('userAgent', 512),
    appVersion: optionalText('appVersion', 50),
  })
  .strict();

/** spec 4.11: a client's fallback error screen reports what broke; no token, size- and rate-limited. */
export async function reportIssueRoute(app: FastifyInstance, services: Pick<Services, 'reports'>) {
  app.post(REPORT_ISSUE_PATH, {
    bodyLimit: REPORT_ISSUE_BODY_LIMIT,
    config: { operation: 'reportIssue', rateLimit: { max: 10, timeWindow: 60_000 } },
    handler: async (req) => {
      let body: unknown = req.body ?? {};
      if (body && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 1 && 'data' in body) {
        body = (body as { data: unknown }).data;
      }
      const parsed = reportIssueBody.safeParse(body);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.') || '(body)', message: i.message }));
        throw new AppError('VALIDATION_FAILED', `${issues[0].path}: ${issues[0].message}`, { issues });
      }
      const input = { ...parsed.data, userAgent: parsed.data.userAgent ?? req.headers['user-agent']?.slice(0, 512) };
      const { id } = await services.reports.recordIssue(input, req.ip);
      return { ok: true, id };
    },
  });
}
