import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../kernel/errors.js';
import type { Services } from '../../platform/services.js';
import { NOT_ME_PATH } from '../../modules/security/credential-notices.js';
import { loginIdentifierInput } from '../../modules/security/login.js';
import { PAGE_CSP } from '../security-headers.js';

export const LOGIN_FAILED_PATH = '/api/public/login-failed';

/** Decision (docs/decisions.md): plain JSON `{identifier, method?, reason?}`; the `{data}` envelope is accepted too. */
export const loginFailedBody = z
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
export async function loginFailedRoute(app: FastifyInstance, services: Pick<Services, 'security'>) {
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

export const notMeBody = z.object({ token: z.string({ error: 'token is required' }).max(200, 'token is not valid') }).strict();

/**
 * The "this wasn't me" link of credential-change notices (credential-notices.ts). The e-mailed link opens a page
 * (GET changes nothing: mail scanners fetch links) whose button posts the token; API clients may POST JSON.
 */
export async function notMeRoutes(app: FastifyInstance, services: Pick<Services, 'security'>) {
  app.get(NOT_ME_PATH, {
    config: { operation: 'notMePage', rateLimit: { max: 20, timeWindow: 60_000 } },
    handler: async (req, reply) => {
      const token = String((req.query as { token?: unknown }).token ?? '');
      const safe = /^nme_[A-Za-z0-9_-]{20,100}$/.test(token) ? token : '';
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .header('content-security-policy', PAGE_CSP);
      return notMePage(
        safe
          ? `<p>Someone changed how your account signs in. If it was not you, this signs you out on every device and undoes the sign-in settings that were changed.</p>
             <form method="post" action="${NOT_ME_PATH}"><input type="hidden" name="token" value="${safe}"><button type="submit">It wasn't me: sign me out everywhere</button></form>`
          : '<p>This link is not valid.</p>',
      );
    },
  });
  // The page's form posts urlencoded; the parser is scoped to this route.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 2048 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    scope.post(NOT_ME_PATH, {
      bodyLimit: 2048,
      config: { operation: 'notMe', rateLimit: { max: 10, timeWindow: 60_000 } },
      handler: async (req, reply) => {
        const form = req.headers['content-type']?.startsWith('application/x-www-form-urlencoded');
        let body: unknown = req.body ?? {};
        if (body && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 1 && 'data' in body)
          body = (body as { data: unknown }).data;
        const parsed = notMeBody.safeParse(body);
        if (!parsed.success)
          throw new AppError('VALIDATION_FAILED', `token: ${parsed.error.issues[0].message}`, {
            issues: [{ path: 'token', message: parsed.error.issues[0].message }],
          });
        if (!form) return { ok: true, ...(await services.security.notices.notMe(parsed.data.token)) };
        reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('content-security-policy', PAGE_CSP);
        try {
          await services.security.notices.notMe(parsed.data.token);
          return notMePage(
            '<p>Done: every session is signed out and PIN login is off. Sign in again with a code sent to your e-mail address, then check your PINs and two-factor settings.</p>',
          );
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          reply.status(404);
          return notMePage(`<p>${err.message}.</p>`);
        }
      },
    });
  });
}

function notMePage(content: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Secure your account</title></head><body><main><h1>Secure your account</h1>${content}</main></body></html>`;
}
