import { AppError, type ErrorCode } from '../kernel/errors.js';

/** The HTTP status of each error code (the kernel's errors know no transport). */
export function statusOf(code: ErrorCode): number {
  switch (code) {
    case 'VALIDATION_FAILED':
    case 'BAD_REQUEST':
    case 'OTP_INVALID':
    case 'OTP_EXPIRED':
    case 'PASSKEY_INVALID':
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
    case 'OPERATOR_2FA_REQUIRED':
    case 'SECOND_FACTOR_REQUIRED':
    case 'ACCOUNT_CLOSED':
    case 'ACCOUNT_FROZEN':
    case 'KEY_SUSPENDED':
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
    case 'EMAIL_UNAVAILABLE':
      return 503;
    case 'INTERNAL':
      return 500;
  }
}

export const statusOfError = (err: AppError): number => statusOf(err.code);
