import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { loginIdentifierInput } from './login.js';

export const LOGIN_FAILED_PATH = '/api/public/login-failed';

/** Decision (docs/decisions.md): plain JSON `{identifier, method?, reason?}`; the `{data}` envelope is accepted too. */
const loginFailedBody = z
  .object({
    identifier: loginIdentifierInput,
    method: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_:-]{1,40}$/, 'method must be 1-40 letters, digits, _ : or - (e.g. email_otp, pin)')
      .optional(),
    reason: z.string().trim().max(200, 'reason must be at most 200 characters').optional(),
  })
  .strict();

/** spec 4.11: records a failed sign-in reported by a client; no token, strict rate limit, answers the same for any identifier. */
export async function loginFailedRoute(app: FastifyInstance, services: Services) {
  app.post(LOGIN_FAILED_PATH, {
    bodyLimit: 2048,
    config: { operation: 'loginFailed', rateLimit: { max: 10, timeWindow: 60_000 } },
    handler: async (req) => {
      let body: unknown = req.body ?? {};
      if (body && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 1 && 'data' in body) {
        body = (body as { data: unknown }).data;
      }
      const parsed = loginFailedBody.safeParse(body);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.') || '(body)', message: i.message }));
        throw new AppError('VALIDATION_FAILED', `${issues[0].path}: ${issues[0].message}`, { issues });
      }
      await services.security.login.reportLoginFailure(parsed.data, { ip: req.ip, userAgent: req.headers['user-agent'] });
      return { ok: true };
    },
  });
}
