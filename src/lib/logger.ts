import pino from 'pino';

export type Logger = pino.Logger;

/** Fields never written to a log line (issue 2: authorization, cookies, pin, code, otp, nin, bvn, tokens, secrets). */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-grant-token"]',
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

export function createLogger(opts: { level: string; stream?: pino.DestinationStream }): Logger {
  return pino({ level: opts.level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, opts.stream);
}
