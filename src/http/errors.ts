import type { z } from 'zod';
/**
 * The one error catalogue (STYLE rule 4, DESIGN §4). Add a code here and to the switch; the compiler
 * refuses a code without a status. docs/errors.md lists the same codes.
 */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'BAD_REQUEST',
  'UNAUTHENTICATED',
  'SESSION_SUPERSEDED',
  'INVALID_CREDENTIALS',
  'FORBIDDEN',
  'KYC_TIER_REQUIRED',
  'STEP_UP_REQUIRED',
  'ACCOUNT_CLOSED',
  'NOT_FOUND',
  'CONFLICT',
  'PRICE_CHANGED',
  'IDEMPOTENCY_IN_PROGRESS',
  'DUPLICATE_REFERENCE',
  'USERNAME_TAKEN',
  'ALREADY_VOTED',
  'OUT_OF_STOCK',
  'IDEMPOTENCY_KEY_REUSED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'PIN_LOCKED',
  'OTP_COOLDOWN',
  'OTP_DAILY_LIMIT',
  'OTP_INVALID',
  'OTP_EXPIRED',
  'INVALID_PIN',
  'PIN_NOT_SET',
  'INSUFFICIENT_FUNDS',
  'AMOUNT_OUT_OF_RANGE',
  'LIMIT_EXCEEDED',
  'NOT_ELIGIBLE',
  'NETWORK_MISMATCH',
  'KYC_PREVIOUS_TIER_REQUIRED',
  'KYC_PROFILE_INCOMPLETE',
  'ACCOUNT_HAS_FUNDS',
  'LOAN_OUTSTANDING',
  'UPSTREAM_ERROR',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export function statusOf(code: ErrorCode): number {
  switch (code) {
    case 'VALIDATION_FAILED':
    case 'BAD_REQUEST':
    case 'OTP_INVALID':
    case 'OTP_EXPIRED':
    case 'INVALID_PIN':
    case 'PIN_NOT_SET':
    case 'INSUFFICIENT_FUNDS':
    case 'AMOUNT_OUT_OF_RANGE':
    case 'LIMIT_EXCEEDED':
    case 'NOT_ELIGIBLE':
    case 'NETWORK_MISMATCH':
    case 'KYC_PREVIOUS_TIER_REQUIRED':
    case 'KYC_PROFILE_INCOMPLETE':
    case 'ACCOUNT_HAS_FUNDS':
    case 'LOAN_OUTSTANDING':
      return 400;
    case 'UNAUTHENTICATED':
    case 'SESSION_SUPERSEDED':
    case 'INVALID_CREDENTIALS':
      return 401;
    case 'FORBIDDEN':
    case 'KYC_TIER_REQUIRED':
    case 'STEP_UP_REQUIRED':
    case 'ACCOUNT_CLOSED':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'CONFLICT':
    case 'PRICE_CHANGED':
    case 'IDEMPOTENCY_IN_PROGRESS':
    case 'DUPLICATE_REFERENCE':
    case 'USERNAME_TAKEN':
    case 'ALREADY_VOTED':
    case 'OUT_OF_STOCK':
      return 409;
    case 'PAYLOAD_TOO_LARGE':
      return 413;
    case 'UNSUPPORTED_MEDIA_TYPE':
      return 415;
    case 'IDEMPOTENCY_KEY_REUSED':
      return 422;
    case 'RATE_LIMITED':
    case 'PIN_LOCKED':
    case 'OTP_COOLDOWN':
    case 'OTP_DAILY_LIMIT':
      return 429;
    case 'UPSTREAM_ERROR':
      return 502;
    case 'SERVICE_UNAVAILABLE':
      return 503;
    case 'INTERNAL':
      return 500;
  }
}

export interface ErrorIssue {
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly issues?: ErrorIssue[];
  /** Seconds for Retry-After on 429s. */
  readonly retryAfter?: number;

  constructor(code: ErrorCode, message: string, opts: { issues?: ErrorIssue[]; retryAfter?: number; cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.code = code;
    this.status = statusOf(code);
    this.issues = opts.issues;
    this.retryAfter = opts.retryAfter;
  }
}

export const notFound = (what = 'Resource') => new AppError('NOT_FOUND', `${what} not found`);

export function zodIssues(err: z.ZodError): ErrorIssue[] {
  return err.issues.map((i) => ({ path: i.path.map(String).join('.') || '(body)', message: i.message }));
}

/** A zod failure as the 400 VALIDATION_FAILED envelope, naming the first bad field in the message. */
export function validationError(err: z.ZodError): AppError {
  const issues = zodIssues(err);
  const first = issues[0];
  return new AppError('VALIDATION_FAILED', first ? `${first.path}: ${first.message}` : 'Input is not valid', { issues });
}
