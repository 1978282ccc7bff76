import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Browser features nobody may use on our pages, on every answer. The web app itself needs the camera for the
 * liveness selfie, on its own origin only; everything listed else is off, so a page we serve (or a frame on it)
 * cannot ask for the microphone, location, payment handlers, USB and the like. The share sheet (receipts) is not
 * listed: its default is our own origin already, and browsers without it warn about a feature they do not know.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=(self)',
  'display-capture=()',
  'encrypted-media=()',
  'fullscreen=(self)',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'idle-detection=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'picture-in-picture=()',
  // Operators confirm a step-up with their passkey in the console (issue 30): WebAuthn sign-in on our own origin only.
  'publickey-credentials-get=(self)',
  'screen-wake-lock=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

/**
 * The interactive API docs (/docs): Swagger UI's own files from /docs/static only (its index page has no inline
 * script), the document fetched from the same origin, nothing framed, no forms, no plugins. The one inline style
 * element Swagger UI's bundle adds is allowed by its hash; a new Swagger UI version with another one fails the
 * browser test of /docs (test/security/second-pass-platform.test.ts), which prints the new hash.
 */
const SWAGGER_UI_INLINE_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";
export const DOCS_CSP =
  "default-src 'none'; base-uri 'none'; connect-src 'self'; font-src 'self' data:; form-action 'none'; frame-ancestors 'none'; " +
  `img-src 'self' data:; manifest-src 'none'; object-src 'none'; script-src 'self'; script-src-attr 'none'; style-src 'self' ${SWAGGER_UI_INLINE_STYLE}`;

/** The server-rendered pages of e-mailed links (the not-me page): no script, no style, a form that posts back here only. */
export const PAGE_CSP = "default-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/**
 * helmet's response headers for `options`, worked out once. With no content security policy (the interactive docs
 * need inline scripts) every header helmet sets is the same for every request, so setting this object from one
 * hook gives the same answers as running helmet's middleware per request, at a fraction of the cost (
 * the per-request middleware was a sizeable share of a cheap request's CPU). Headers helmet removes are listed
 * in `remove`.
 */
export function securityHeaders(options: HelmetOptions): { set: Record<string, string>; remove: string[] } {
  if (options.contentSecurityPolicy !== false)
    throw new Error('securityHeaders: a content security policy may vary per request; use @fastify/helmet');
  const set: Record<string, string> = {};
  const remove: string[] = [];
  const res = {
    setHeader: (name: string, value: unknown) => void (set[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void remove.push(name.toLowerCase()),
  };
  let done = false;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  if (!done) throw new Error('securityHeaders: helmet did not finish synchronously');
  set['permissions-policy'] = PERMISSIONS_POLICY;
  return { set, remove };
}
