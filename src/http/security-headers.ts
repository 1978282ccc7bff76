import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

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
  return { set, remove };
}
