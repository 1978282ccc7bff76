import pino from 'pino';
import { prettyStream, type LogFormat } from './log-format.js';

export type Logger = pino.Logger;

/** Fields never written to a log line (authorization, cookies, pin, code, otp, nin, bvn, tokens, secrets). */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-grant-token"]',
  'req.headers["x-passkey-assertion"]',
  'req.headers["x-processor-signature"]',
  'headers.authorization',
  'headers.cookie',
  '*.pin',
  '*.currentPin',
  '*.code',
  '*.otp',
  '*.totpCode',
  '*.nin',
  '*.bvn',
  '*.accountNumber',
  '*.token',
  '*.accessToken',
  '*.refreshToken',
  '*.grantToken',
  '*.secret',
  '*.password',
  '*.contentBase64',
  'pin',
  'code',
  'otp',
  'nin',
  'bvn',
  'secret',
  'token',
];

/**
 * Query parameters that are credentials (signed file URLs, one-time links) or personal (a bank account number in the
 * processor's name enquiry): their values never reach a log line.
 */
const SECRET_QUERY = /([?&](?:sig|signature|token|access_token|code|account_number)=)[^&#]*/gi;
export const redactUrl = (url: string) => url.replace(SECRET_QUERY, '$1[redacted]');

/** Requests as a log line shows them (a signed URL's signature is a credential). */
function serializeRequest(req: { method?: string; url?: string; hostname?: string; ip?: string; socket?: { remotePort?: number } }) {
  return {
    method: req.method,
    url: req.url ? redactUrl(req.url) : req.url,
    hostname: req.hostname,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * The service's logger: JSON lines (to `stream`, stdout by default), or with `format: 'pretty'` (LOG_FORMAT, the
 * sandbox only) the same lines, redacted the same way, as one line of text each (lib/log-format.ts).
 */
export function createLogger(opts: { level: string; stream?: pino.DestinationStream; format?: LogFormat }): Logger {
  const stream =
    opts.format === 'pretty' ? prettyStream(opts.stream ?? process.stdout, { color: !opts.stream && process.stdout.isTTY }) : opts.stream;
  return pino({ level: opts.level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, serializers: { req: serializeRequest } }, stream);
}
