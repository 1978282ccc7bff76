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
  'OPERATOR_2FA_REQUIRED',
  'SECOND_FACTOR_REQUIRED',
  'ACCOUNT_CLOSED',
  'ACCOUNT_FROZEN',
  'KEY_SUSPENDED',
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
  'PASSKEY_INVALID',
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
  'EMAIL_UNAVAILABLE',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorIssue {
  path: string;
  message: string;
}

/**
 * Machine-readable facts about a refusal, for clients that word it themselves: how many PIN tries are left and,
 * when locked, until when (INVALID_PIN, INVALID_CREDENTIALS, PIN_LOCKED).
 */
export interface ErrorDetails {
  triesLeft?: number;
  /** ISO time the lock ends. */
  lockedUntil?: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly issues?: ErrorIssue[];
  /** Seconds for Retry-After on 429s. */
  readonly retryAfter?: number;
  readonly details?: ErrorDetails;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { issues?: ErrorIssue[]; retryAfter?: number; details?: ErrorDetails; cause?: unknown } = {},
  ) {
    super(message, { cause: opts.cause });
    this.code = code;
    this.issues = opts.issues;
    this.retryAfter = opts.retryAfter;
    this.details = opts.details;
  }
}

export const notFound = (what = 'Resource') => new AppError('NOT_FOUND', `${what} not found`);

const ACRONYMS: Record<string, string> = { id: 'ID', iuc: 'IUC', pin: 'PIN', otp: 'OTP', url: 'URL', nin: 'NIN', bvn: 'BVN', totp: 'TOTP' };

/** A field name as people read it: `plan_id` -> "Plan ID", `callbackUrl` -> "Callback URL". */
export function fieldLabel(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((w) => ACRONYMS[w.toLowerCase()] ?? w.toLowerCase());
  const s = words.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * An issue's message as a sentence for people (issue 29): the path travels beside it, so a message that starts with
 * its own field name starts with the field's label instead ("amount must be…" -> "Amount must be…").
 */
function humanMessage(path: string, message: string): string {
  const field = path.split('.').pop() ?? '';
  const m = field && message.startsWith(`${field} `) ? fieldLabel(field) + message.slice(field.length) : message;
  return m.charAt(0).toUpperCase() + m.slice(1);
}

export function zodIssues(err: z.ZodError): ErrorIssue[] {
  return err.issues.map((i) => {
    const path = i.path.map(String).join('.') || '(body)';
    return { path, message: humanMessage(path, i.message) };
  });
}

/**
 * A zod failure as the 400 VALIDATION_FAILED envelope. The message is the first issue's, prefixed with the field's
 * label only when the sentence does not name it already.
 */
export function validationError(err: z.ZodError): AppError {
  const issues = zodIssues(err);
  const first = issues[0];
  if (!first) return new AppError('VALIDATION_FAILED', 'Input is not valid', { issues });
  const field = first.path.split('.').pop() ?? '';
  const label = first.path === '(body)' || /^\d+$/.test(field) ? '' : fieldLabel(field);
  const message = !label || first.message.startsWith(label) ? first.message : `${label}: ${first.message}`;
  return new AppError('VALIDATION_FAILED', message, { issues });
}

/** Parses a value with its schema; a failure is VALIDATION_FAILED naming the first bad field. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const r = schema.safeParse(value ?? {});
  if (!r.success) throw validationError(r.error);
  return r.data;
}
