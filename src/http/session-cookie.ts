import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { serverFnPath } from '../platform/operation.js';

/**
 * Cookie transport for refresh tokens (docs/design.md §13): the web app sends `X-Session-Transport: cookie`,
 * and the refresh token then travels only in an HttpOnly, SameSite=Strict cookie scoped to the refresh and
 * sign-out paths, never in a body JavaScript can read. API clients that do not send the header keep the JSON
 * tokens. A custom header cannot be sent cross-site without a CORS preflight, and SameSite=Strict keeps the
 * cookie off cross-site requests, so the cookie alone never refreshes a session for another site.
 */
export const SESSION_TRANSPORT_HEADER = 'x-session-transport';
export const REFRESH_COOKIE = 'vtu_refresh';

/** The paths the cookie is sent to: refreshing and signing out, nothing else. */
export const REFRESH_COOKIE_PATHS = [
  serverFnPath({ name: 'refreshSession', suffix: 'PublicAuth' }),
  serverFnPath({ name: 'signOut', suffix: 'BearerAuth' }),
];

export function wantsCookieTransport(req: FastifyRequest): boolean {
  return req.headers[SESSION_TRANSPORT_HEADER] === 'cookie';
}

/** The refresh token from the request's cookie, or undefined. */
export function refreshTokenFromCookie(req: FastifyRequest): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === REFRESH_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9._~-]{1,200}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

function cookie(config: Config, path: string, value: string, maxAgeSeconds: number): string {
  // Secure everywhere but plain-http localhost (a browser drops Secure cookies on http://localhost otherwise).
  const local = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(\/|$)/.test(config.publicUrl);
  return [
    `${REFRESH_COOKIE}=${value}`,
    `Path=${path}`,
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(local ? [] : ['Secure']),
  ].join('; ');
}

/**
 * Moves a session's refresh token from the answer into the cookie (one per scoped path); the body's refreshToken is
 * left empty. Answers without a session are returned unchanged.
 */
export function moveRefreshTokenToCookie(config: Config, reply: FastifyReply, body: { ok?: boolean; session?: { refreshToken?: string } }) {
  const token = body.session?.refreshToken;
  if (!body.ok || !token) return body;
  const maxAge = config.auth.refreshTtlSeconds;
  reply.header(
    'set-cookie',
    REFRESH_COOKIE_PATHS.map((p) => cookie(config, p, token, maxAge)),
  );
  return { ...body, session: { ...body.session, refreshToken: '' } };
}

export function clearRefreshCookie(config: Config, reply: FastifyReply) {
  reply.header(
    'set-cookie',
    REFRESH_COOKIE_PATHS.map((p) => cookie(config, p, '', 0)),
  );
}

/**
 * The device cookie (issue #28): the tokens of the accounts this browser has signed in to (modules/identity/devices.ts),
 * newest first, joined by dots. HttpOnly and SameSite=Strict like the refresh cookie, Secure but on plain-http
 * localhost, and sent only to the operations that spend an attempt budget: there a known device guesses on its own
 * budget. Unlike the refresh cookie it is set whatever the session transport: any client that keeps cookies benefits.
 */
export const DEVICE_COOKIE = 'vtu_device';
/** How long the browser keeps it; the server's own expiry (180 days after the last sign-in) is what counts. */
const DEVICE_COOKIE_MAX_AGE_S = 180 * 24 * 3600;

export const DEVICE_COOKIE_PATHS = [
  serverFnPath({ name: 'verifyLoginOtp', suffix: 'PublicAuth' }),
  serverFnPath({ name: 'startPinLogin', suffix: 'PublicAuth' }),
  serverFnPath({ name: 'completeSignIn', suffix: 'BearerAuth' }),
  serverFnPath({ name: 'verifyStepupChallenge', suffix: 'Bearer2FA' }),
  serverFnPath({ name: 'confirmTotpEnrollment', suffix: 'Bearer2FA' }),
  serverFnPath({ name: 'requestTwoFactorReset', suffix: 'Bearer2FA' }),
  serverFnPath({ name: 'cancelTwoFactorReset', suffix: 'Bearer2FA' }),
];

/** The device tokens the request's cookie carries (malformed values are ignored). */
export function deviceTokensFromCookie(req: FastifyRequest): string[] {
  const header = req.headers.cookie;
  if (!header || header.length > 4096) return [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === DEVICE_COOKIE) {
      return part
        .slice(eq + 1)
        .trim()
        .split('.')
        .filter((t) => /^[A-Za-z0-9_-]{20,64}$/.test(t))
        .slice(0, 5);
    }
  }
  return [];
}

export function setDeviceCookie(config: Config, reply: FastifyReply, tokens: readonly string[]) {
  if (!tokens.length) return;
  const local = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(\/|$)/.test(config.publicUrl);
  reply.header(
    'set-cookie',
    DEVICE_COOKIE_PATHS.map((p) =>
      [
        `${DEVICE_COOKIE}=${tokens.join('.')}`,
        `Path=${p}`,
        `Max-Age=${DEVICE_COOKIE_MAX_AGE_S}`,
        'HttpOnly',
        'SameSite=Strict',
        ...(local ? [] : ['Secure']),
      ].join('; '),
    ),
  );
}
