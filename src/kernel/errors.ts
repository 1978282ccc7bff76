import type { z } from 'zod';

/**
 * The error catalogue: a stable code and a message for people. What a code means on the wire (its HTTP status)
 * is the transport's business: `http/errors.ts` maps codes to statuses.
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

export interface ErrorIssue {
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly issues?: ErrorIssue[];
  /** Seconds for Retry-After on 429s. */
  readonly retryAfter?: number;

  constructor(code: ErrorCode, message: string, opts: { issues?: ErrorIssue[]; retryAfter?: number; cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.code = code;
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

/** Parses a value with its schema; a failure is VALIDATION_FAILED naming the first bad field. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const r = schema.safeParse(value ?? {});
  if (!r.success) throw validationError(r.error);
  return r.data;
}
